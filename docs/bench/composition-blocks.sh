#!/usr/bin/env bash
# The composition evaluated on as many LDE blocks as it has parts (CompositionRound.compositionEvaluationRows), this
# checkout against another one: warm proofs of fib 2^20 (jstark's defaults: blowup 8) and of the Keccak table with
# jstark's usual options (1,365 permutations, blowup 8, 28 queries, 16 grinding bits, folding 4, final degree 32,
# blake3), on one and two worker threads, each checkout through its own warm daemon (one unmeasured and three
# measured proofs), in the order base, this, this, base. Both checkouts must be built (jstark-cli packaged). Appends
# to docs/bench/composition-blocks.txt.
# Usage: docs/bench/composition-blocks.sh BASE_CHECKOUT
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
warm_phases="composition"
warm_operations="constraint_evaluation|coset_interpolate"
. "$root/docs/bench/warm-proofs.sh"
{
  echo "== $(date -u) $(uptime)"
  echo "this: $(git -C "$root" describe --always --dirty), base: $(git -C "$base" describe --always --dirty); $(nproc) cores"
  for workload in fib keccak; do
    for threads in 1 2; do
      if [ "$workload" = fib ]; then
        prove=(prove --example fib --size 2^20 --threads "$threads" -o "$tmp/p.bin")
      else
        prove=(prove --example keccak --hashes 1365 --blowup 8 --queries 28 --grinding 16 --folding 4 --final-degree 32
          --hash blake3 --threads "$threads" -o "$tmp/p.bin")
      fi
      for side in base this this base; do
        dir=$([ "$side" = base ] && echo "$base" || echo "$root")
        echo "-- $side: warm $workload, $threads threads, load $(cut -d' ' -f1-3 /proc/loadavg)"
        warm "$dir"
      done
    done
  done
} | tee -a "$root/docs/bench/composition-blocks.txt"
