#!/usr/bin/env bash
# Where a second worker thread waits in narrow and wide proofs, this checkout against another one, in the order base,
# this, this, base: the LDE kernel at fib's and mix's shapes (2^20 x 2 and 2^18 x 4, blowup 8; docs/bench/LdeThreads.java);
# warm proofs of fib 2^20 (jstark's defaults) and of the Keccak table with Plonky3's options (1,365 permutations,
# blowup 2, 100 queries, 16 grinding bits, folding 2, final degree 1, keccak256) on one and two worker threads, each
# checkout through its own warm daemon (one unmeasured and three measured proofs), twice, printing the prepass,
# main_commit and deep phases and the LDE span; the narrow tables' JMH single shots (FibonacciProveBenchmark on one
# and two threads, MixProveBenchmark), 10 measured shots per run, medians of the 20 a side. Written for the DEEP
# division's products reduced once (Goldilocks.sumOfProducts), the prepass's canonical-cell check of a large table on
# the worker pool, and a few-column LDE schedule measured and then reverted (docs/bench/narrow-second-thread.txt).
# Both checkouts must be built (jstark-cli and jstark-bench packaged). Appends to docs/bench/narrow-second-thread.txt.
# Usage: docs/bench/narrow-second-thread.sh BASE_CHECKOUT
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
  for args in "20 2 1,2 12 extend 3" "18 4 1,2 12 extend 3"; do
    # shellcheck disable=SC2086
    "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xmx4g \
      -cp "$(jars "$1"):$tmp/classes-$2" LdeThreads $args 2>&1 | grep -v '^WARNING'
  done
}
warm_phases="prepass|main_commit|deep"
warm_operations="lde"
. "$root/docs/bench/warm-proofs.sh"
{
  echo "== $(date -u) $(uptime)"
  echo "this: $(git -C "$root" describe --always --dirty), base: $(git -C "$base" describe --always --dirty); $(nproc) cores"
  for side in base this this base; do
    dir=$([ "$side" = base ] && echo "$base" || echo "$root")
    echo "-- $side: the LDE kernel (median of 12 calls after warm-up), load $(cut -d' ' -f1-3 /proc/loadavg)"
    kernel "$dir" "$side"
  done
  for workload in fib keccak; do
    for threads in 1 2; do
      if [ "$workload" = fib ]; then
        prove=(prove --example fib --size 2^20 --threads "$threads" -o "$tmp/p.bin")
      else
        prove=(prove --example keccak --hashes 1365 --blowup 2 --queries 100 --grinding 16 --folding 2 --final-degree 1
          --hash keccak256 --threads "$threads" -o "$tmp/p.bin")
      fi
      for side in base this this base base this this base; do
        dir=$([ "$side" = base ] && echo "$base" || echo "$root")
        echo "-- $side: warm $workload, $threads threads, load $(cut -d' ' -f1-3 /proc/loadavg)"
        warm "$dir"
      done
    done
  done
  narrow_jmh "$base" "$root"
} | tee -a "$root/docs/bench/narrow-second-thread.txt"
