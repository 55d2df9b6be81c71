#!/usr/bin/env bash
# Where the Keccak table's constraint evaluation goes, kernel by kernel: docs/bench/KernelCosts.java (the source next
# to this script, its comment says what it times) with this checkout's bench jar, which must be built first
# (mvn package of jstark-bench: the log names the checkout's commit, not the jar's). Appends to
# docs/bench/kernel-costs.txt once the run is complete.
# Usage: docs/bench/kernel-costs.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
jar="$root/jstark-bench/target/benchmarks.jar"
if [ ! -f "$jar" ]; then
  echo "$jar is missing: build jstark-bench first" >&2
  exit 2
fi
. "$root/scripts/jdk.sh"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
{
  echo "== $(date -u) $(uptime)"
  echo "build $(git -C "$root" describe --always --dirty); $(nproc) cores"
  "$JAVA_HOME/bin/javac" -d "$tmp/classes" -cp "$jar" "$root/docs/bench/KernelCosts.java"
  "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector -cp "$tmp/classes:$jar" KernelCosts 2>&1 | grep -v '^WARNING'
} | tee "$tmp/log"
cat "$tmp/log" >>"$root/docs/bench/kernel-costs.txt"
