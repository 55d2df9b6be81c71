#!/usr/bin/env bash
# A trace LDE column by column (Lde.extendsColumnByColumn), this checkout against another one: the LDE kernel alone
# on the Keccak table's shape (2^15 rows x 2,633 columns, blowup 2) and on 513 columns with blowup 8
# (docs/bench/LdeThreads.java, one and two worker threads, in one JVM per shape), then warm Keccak proofs with
# Plonky3's options on one and two threads (each checkout through its own warm daemon: one unmeasured and three
# measured proofs; the lde and merkle lines are main_commit's two steps). Order: base, this, this, base. Both
# checkouts must be built (jstark-math and jstark-cli packaged). Appends to docs/bench/lde-columns.txt.
# Usage: docs/bench/lde-columns.sh BASE_CHECKOUT
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: $0 BASE_CHECKOUT" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/../.." && pwd)"
base="$(cd "$1" && pwd)"
. "$root/scripts/jdk.sh"
export JSTARK_DAEMON=on
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
kernel() {
  mkdir -p "$tmp/classes-$2"
  "$JAVA_HOME/bin/javac" -d "$tmp/classes-$2" -cp "$(jars "$1")" "$root/docs/bench/LdeThreads.java"
  for args in "15 2633 1,2 5 extend 1" "15 513 1,2 5 extend 3"; do
    # shellcheck disable=SC2086
    "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xmx3g \
      -XX:+UseTransparentHugePages -cp "$(jars "$1"):$tmp/classes-$2" LdeThreads $args 2>&1 | grep -v '^WARNING'
  done
}
warm_phases="main_commit|composition"
warm_operations="lde|merkle"
. "$root/docs/bench/warm-proofs.sh"
{
  echo "== $(date -u) $(uptime)"
  echo "this: $(git -C "$root" describe --always --dirty), base: $(git -C "$base" describe --always --dirty); $(nproc) cores"
  for side in base this this base; do
    dir=$([ "$side" = base ] && echo "$base" || echo "$root")
    echo "-- $side: the LDE kernel (median of 5 calls after 3), load $(cut -d' ' -f1-3 /proc/loadavg)"
    kernel "$dir" "$side"
  done
  for threads in 1 2; do
    prove=(prove --example keccak --hashes 1365 --blowup 2 --queries 100 --grinding 16 --folding 2 --final-degree 1
      --hash keccak256 --threads "$threads" -o "$tmp/k.bin")
    for side in base this this base; do
      dir=$([ "$side" = base ] && echo "$base" || echo "$root")
      echo "-- $side: warm Keccak, 1,365 permutations, Plonky3's options, $threads threads, load $(cut -d' ' -f1-3 /proc/loadavg)"
      warm "$dir"
    done
  done
} | tee -a "$root/docs/bench/lde-columns.txt"
