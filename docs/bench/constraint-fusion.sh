#!/usr/bin/env bash
# The interpreter's fused runs (Fusion, FusedKernels), this checkout against another one: WideConstraintBenchmark on
# the Keccak-f and width-8 Poseidon2 constraints (combined as the composition combines them, batches of 512 rows, one
# thread), then warm Keccak proofs with Plonky3's options (each checkout through its own warm daemon: one unmeasured
# and three measured proofs), in the order base, this, this, base. Both checkouts must be built (jstark-bench and
# jstark-cli packaged). Appends to docs/bench/constraint-fusion.txt.
# Usage: docs/bench/constraint-fusion.sh BASE_CHECKOUT [threads] (default 1)
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: $0 BASE_CHECKOUT [threads]" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/../.." && pwd)"
base="$(cd "$1" && pwd)"
threads="${2:-1}"
out="$root/docs/bench/constraint-fusion.txt"
. "$root/scripts/jdk.sh"
# warm means through the daemon, also where CI is set
export JSTARK_DAEMON=on
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
prove=(prove --example keccak --hashes 1365 --blowup 2 --queries 100 --grinding 16 --folding 2 --final-degree 1
  --hash keccak256 --threads "$threads" -o "$tmp/k.bin")
jmh() {
  "$JAVA_HOME/bin/java" -jar "$1/jstark-bench/target/benchmarks.jar" WideConstraintBenchmark -f 1 -foe true \
    -wi 3 -i 5 -w 2 -r 2 -p table=keccak,poseidon2 -p engine=interpreted -p batch=512 -p outputs=combined \
    >"$tmp/jmh" 2>&1 || { cat "$tmp/jmh"; exit 1; }
  # the setup's lines (instruction mix, fused runs; once per table) follow JMH's iteration prefix on the same line
  grep -oE '[a-z0-9-]+: [0-9]+ constraints, [0-9]+ instructions per row|[0-9]+ runs fused as .*|^WideConstraint.*' \
    "$tmp/jmh"
}
warm_phases="main_commit|composition|ood"
. "$root/docs/bench/warm-proofs.sh"
{
  echo "== $(date -u) $(uptime)"
  echo "this: $(git -C "$root" describe --always --dirty), base: $(git -C "$base" describe --always --dirty); $(nproc) cores"
  for side in base this this base; do
    dir=$([ "$side" = base ] && echo "$base" || echo "$root")
    echo "-- $side: WideConstraintBenchmark, interpreted, combined, batch 512 (ms per 2^12 rows, one thread)"
    jmh "$dir"
  done
  for side in base this this base; do
    dir=$([ "$side" = base ] && echo "$base" || echo "$root")
    echo "-- $side: warm scripts/jstark ${prove[*]} (load $(cut -d' ' -f1-3 /proc/loadavg))"
    warm "$dir"
  done
} 2>&1 | tee -a "$out"
