#!/usr/bin/env bash
# The LDE kernels on 1 and 2 worker threads for two builds, alternated A B A B: extendCoefficients of 3 columns (an
# extension-field column, as the composition parts and FRI's layers are) at 2^20 and 2^18 rows, and extend of 3
# trace columns at 2^20, blowup 8 (docs/bench/LdeThreads.java). Appends to docs/bench/lde-threads.txt.
# Usage: docs/bench/lde-threads.sh OTHER_CHECKOUT (another checkout of jstark, built; this one is the other build)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
other="$(cd "${1:?usage: docs/bench/lde-threads.sh OTHER_CHECKOUT}" && pwd)"
. "$root/scripts/jdk.sh"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
. "$root/docs/bench/warm-proofs.sh"
{
  echo "== $(date -u) $(nproc) cores; A = $(git -C "$other" rev-parse --short HEAD), B = $(git -C "$root" rev-parse --short HEAD)"
  for checkout in "$other" "$root" "$other" "$root"; do
    mkdir -p "$tmp/$(basename "$checkout")"
    "$JAVA_HOME/bin/javac" -d "$tmp/$(basename "$checkout")" -cp "$(jars "$checkout")" "$root/docs/bench/LdeThreads.java"
    echo "-- $(git -C "$checkout" rev-parse --short HEAD), load $(cut -d' ' -f1-3 /proc/loadavg)"
    for args in "20 3 1,2 9 coeff" "18 3 1,2 15 coeff" "20 3 1,2 9 extend"; do
      "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xmx3g \
        -cp "$(jars "$checkout"):$tmp/$(basename "$checkout")" LdeThreads $args 2>&1 | grep -v '^WARNING'
    done
  done
} | tee -a "$root/docs/bench/lde-threads.txt"
