#!/usr/bin/env bash
# The DEEP combination with the trace columns summed once (B = gamma^t times A's trace part, from four trace columns
# on: fib's two keep the sum column by column), this checkout against another one, in the order base, this, this, base: warm proofs of fib 2^20 (jstark's defaults) and of the Keccak table
# with Plonky3's options (1,365 permutations, blowup 2, 100 queries, 16 grinding bits, folding 2, final degree 1,
# keccak256) on one and two worker threads, each checkout through its own warm daemon (one unmeasured and three
# measured proofs), printing the composition, ood and deep phases; then the narrow tables' JMH single shots
# (FibonacciProveBenchmark on one and two threads, MixProveBenchmark), 10 measured shots per run, medians of the 20 a
# side. Both checkouts must be built (jstark-cli and jstark-bench packaged). Appends to docs/bench/deep-trace-sum.txt.
# Usage: docs/bench/deep-trace-sum.sh BASE_CHECKOUT [THIS_CHECKOUT [all|warm|jmh]]  (THIS_CHECKOUT defaults to this
# one; the third argument runs both parts, the default, or only the warm proofs or only the JMH shots)
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: $0 BASE_CHECKOUT [THIS_CHECKOUT [all|warm|jmh]]" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/../.." && pwd)"
base="$(cd "$1" && pwd)"
this="$(cd "${2:-$root}" && pwd)"
parts="${3:-all}"
. "$root/scripts/jdk.sh"
export JSTARK_DAEMON=on
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
warm_phases="composition|ood|deep"
. "$root/docs/bench/warm-proofs.sh"
{
  echo "== $(date -u) $(uptime)"
  echo "this: $(git -C "$this" describe --always --dirty), base: $(git -C "$base" describe --always --dirty); $(nproc) cores"
  for workload in fib keccak; do
    [ "$parts" = jmh ] && break
    for threads in 1 2; do
      if [ "$workload" = fib ]; then
        prove=(prove --example fib --size 2^20 --threads "$threads" -o "$tmp/p.bin")
      else
        prove=(prove --example keccak --hashes 1365 --blowup 2 --queries 100 --grinding 16 --folding 2 --final-degree 1
          --hash keccak256 --threads "$threads" -o "$tmp/p.bin")
      fi
      for side in base this this base; do
        dir=$([ "$side" = base ] && echo "$base" || echo "$this")
        echo "-- $side: warm $workload, $threads threads, load $(cut -d' ' -f1-3 /proc/loadavg)"
        warm "$dir"
      done
    done
  done
  [ "$parts" = warm ] || narrow_jmh "$base" "$this"
} | tee -a "$root/docs/bench/deep-trace-sum.txt"
