#!/usr/bin/env bash
# Where the Keccak table's constraint evaluation goes, kernel by kernel: docs/bench/KernelCosts.java (the source next
# to this script, its comment says what it times) with this checkout's bench jar (jstark-bench packaged). Appends to
# docs/bench/kernel-costs.txt.
# Usage: docs/bench/kernel-costs.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
. "$root/scripts/jdk.sh"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
{
  echo "== $(date -u) $(uptime)"
  echo "build $(git -C "$root" describe --always --dirty); $(nproc) cores"
  "$JAVA_HOME/bin/javac" -d "$tmp/classes" -cp "$root/jstark-bench/target/benchmarks.jar" "$root/docs/bench/KernelCosts.java"
  "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector \
    -cp "$tmp/classes:$root/jstark-bench/target/benchmarks.jar" KernelCosts 2>&1 | grep -v '^WARNING'
} | tee -a "$root/docs/bench/kernel-costs.txt"
