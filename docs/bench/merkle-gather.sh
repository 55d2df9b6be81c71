#!/usr/bin/env bash
# Keccak-256 Merkle trees of wide matrices, this checkout against another one: MerkleBenchmark on 2^14 rows x 2,633
# columns (a Keccak-f table's width) with 1, 2 and 4 rows per leaf, then warm Keccak proofs with Plonky3's options
# (each checkout through its own warm daemon: one unmeasured and three measured proofs), in the order base, this,
# this, base. Both checkouts must be built (jstark-bench and jstark-cli packaged), and the base's MerkleBenchmark
# must take the columns and logRows parameters (copy this checkout's jstark-bench/.../crypto/MerkleBenchmark.java
# into an older one). Appends to docs/bench/merkle-gather.txt.
# Usage: docs/bench/merkle-gather.sh BASE_CHECKOUT [threads] (default 1)
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: $0 BASE_CHECKOUT [threads]" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/../.." && pwd)"
base="$(cd "$1" && pwd)"
threads="${2:-1}"
out="$root/docs/bench/merkle-gather.txt"
. "$root/scripts/jdk.sh"
# warm means through the daemon, also where CI is set
export JSTARK_DAEMON=on
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
prove=(prove --example keccak --hashes 1365 --blowup 2 --queries 100 --grinding 16 --folding 2 --final-degree 1
  --hash keccak256 --threads "$threads" -o "$tmp/k.bin")
jmh() {
  "$JAVA_HOME/bin/java" -jar "$1/jstark-bench/target/benchmarks.jar" 'MerkleBenchmark.commit2pow20x8' -f 1 -foe true \
    -wi 4 -i 6 -w 1 -r 1 -p hash=keccak256 -p path=lanes -p columns=2633 -p logRows=14 -p rowsPerLeaf=1,2,4 \
    >"$tmp/jmh" 2>&1 || { cat "$tmp/jmh"; exit 1; }
  grep -qE '^MerkleBenchmark.* 2633 ' "$tmp/jmh" || { echo "$1: MerkleBenchmark ignored columns=2633" >&2; exit 1; }
  # the setup's kernel line follows JMH's iteration prefix on the same line
  grep -oE 'kernel: .*|^MerkleBenchmark.*' "$tmp/jmh" | awk '!seen[$0]++'
}
. "$root/docs/bench/warm-proofs.sh"
{
  echo "== $(date -u) $(uptime)"
  echo "this: $(git -C "$root" describe --always --dirty), base: $(git -C "$base" describe --always --dirty); $(nproc) cores"
  for side in base this this base; do
    dir=$([ "$side" = base ] && echo "$base" || echo "$root")
    echo "-- $side: MerkleBenchmark, keccak256 lanes, 2^14 rows x 2633 columns (ms per commit, one thread)"
    jmh "$dir"
  done
  for side in base this this base; do
    dir=$([ "$side" = base ] && echo "$base" || echo "$root")
    echo "-- $side: warm scripts/jstark ${prove[*]} (load $(cut -d' ' -f1-3 /proc/loadavg))"
    warm "$dir"
  done
} 2>&1 | tee -a "$out"
