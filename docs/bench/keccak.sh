#!/usr/bin/env bash
# Proves 1,365 Keccak-f[1600] permutations (2^15 rows x 2,633 columns) with jstark's usual options and with
# Plonky3's keccak example's options, on 1 and 2 worker threads: a cold JVM per command (JSTARK_DAEMON=off, the
# timing report's split by phase), then warm medians (bench scaling: 1 unmeasured and 3 measured proofs in one JVM).
# Appends everything to docs/bench/keccak.txt.
# Usage: docs/bench/keccak.sh [permutations] (default 1365)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$root/docs/bench/keccak.txt"
n="${1:-1365}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
jstark="$root/scripts/jstark"
declare -A options=(
  [jstark]="--blowup 8 --queries 28 --grinding 16 --folding 4 --final-degree 32 --hash blake3"
  [plonky3]="--blowup 2 --queries 100 --grinding 16 --folding 2 --final-degree 1 --hash keccak256"
)
log2_rows=$(python3 -c "import math; print(max(5, math.ceil(math.log2($n * 24))))")
# the phase table and the totals by kind of a timing report
phases() { awk '/^proving |^proved in|^proof written/ {print; next} /^Timing report/ {p=1} /^Per table/ {p=0} /^Totals by kind/ {t=1} /^Peak memory/ {t=0} p||t'; }
{
  echo "== $(date -u) $(uptime)"
  echo "build: $(git -C "$root" rev-parse --short HEAD); $(nproc) cores; $n permutations in 2^$log2_rows rows"
  for set in jstark plonky3; do
    for threads in 1 2; do
      echo
      echo "-- cold JVM: JSTARK_DAEMON=off scripts/jstark prove --example keccak --hashes $n ${options[$set]} --threads $threads -o proof.bin"
      echo "   load before: $(cut -d' ' -f1-3 /proc/loadavg)"
      JSTARK_DAEMON=off "$jstark" prove --example keccak --hashes "$n" ${options[$set]} --threads "$threads" -o "$tmp/k.bin" \
        >"$tmp/out" 2>"$tmp/err" || { echo "failed:"; tail -5 "$tmp/err"; }
      phases <"$tmp/out"
      echo "   load after: $(cut -d' ' -f1-3 /proc/loadavg)"
    done
  done
  for set in jstark plonky3; do
    for threads in 1 2; do
      echo
      echo "-- warm: JSTARK_DAEMON=off scripts/jstark bench scaling --example keccak --sizes 2^$log2_rows --runs 3 --warmup 1 ${options[$set]} --threads $threads --plot none"
      echo "   load before: $(cut -d' ' -f1-3 /proc/loadavg)"
      JSTARK_DAEMON=off "$jstark" bench scaling --example keccak --sizes "2^$log2_rows" --runs 3 --warmup 1 ${options[$set]} \
        --threads "$threads" --plot none >"$tmp/out" 2>"$tmp/err" || { echo "failed:"; tail -5 "$tmp/err"; }
      awk '/^bench scaling|^  size|^size|^-|^2\^/' "$tmp/out"
      echo "   load after: $(cut -d' ' -f1-3 /proc/loadavg)"
    done
  done
} 2>&1 | tee -a "$out"
