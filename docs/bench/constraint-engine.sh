#!/usr/bin/env bash
# The two constraint engines (-Djstark.constraints=interpreted|compiled) against each other, alternated A B B A
# so that a change of the machine's load hits both alike:
#  1. WideConstraintBenchmark (JMH, one thread, the user constraints of the keccak, poseidon2 and mix tables over
#     2^12 rows in batches of 128), one fork per run, 40 s of warm-up so that C2 has compiled the generated steps;
#  2. whole proofs of 1,365 Keccak-f permutations in a cold JVM each (JSTARK_DAEMON=off), one worker thread.
# Appends everything to docs/bench/constraint-engine.txt.
# Usage: docs/bench/constraint-engine.sh [jmh|proof|all] (default all); needs `jstark_mvn install -DskipTests` first.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$root/docs/bench/constraint-engine.txt"
what="${1:-all}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
. "$root/scripts/jdk.sh"
order=(interpreted compiled compiled interpreted)
{
  echo "== $(date -u) $(uptime)"
  echo "build: $(git -C "$root" rev-parse --short HEAD); $(nproc) cores"
  if [[ "$what" == jmh || "$what" == all ]]; then
    for table in keccak poseidon2 mix; do
      for engine in "${order[@]}"; do
        echo "-- java -jar jstark-bench/target/benchmarks.jar WideConstraintBenchmark -p table=$table -p engine=$engine -p batch=128 -f 1 -wi 4 -w 10 -i 3 -r 3"
        echo "   load before: $(cut -d' ' -f1-3 /proc/loadavg)"
        java -jar "$root/jstark-bench/target/benchmarks.jar" WideConstraintBenchmark -p "table=$table" -p "engine=$engine" -p batch=128 \
          -f 1 -wi 4 -w 10 -i 3 -r 3 >"$tmp/out" 2>&1 || { echo "failed:"; tail -5 "$tmp/out"; }
        grep -E "constraint-rows per operation|^WideConstraintBenchmark" "$tmp/out" | sed 's/^# Warmup Iteration *1: //'
        grep -E "compiled steps" "$tmp/out" | sed 's/^# Warmup Iteration *1: //' | head -3
      done
    done
  fi
  if [[ "$what" == proof || "$what" == all ]]; then
    for engine in "${order[@]}"; do
      echo
      echo "-- cold JVM: JSTARK_DAEMON=off JSTARK_JAVA_OPTS=-Djstark.constraints=$engine scripts/jstark prove --example keccak --hashes 1365 --blowup 8 --queries 28 --grinding 16 --folding 4 --final-degree 32 --hash blake3 --threads 1 -o proof.bin"
      echo "   load before: $(cut -d' ' -f1-3 /proc/loadavg)"
      JSTARK_DAEMON=off JSTARK_JAVA_OPTS="-Djstark.constraints=$engine" "$root/scripts/jstark" prove --example keccak --hashes 1365 \
        --blowup 8 --queries 28 --grinding 16 --folding 4 --final-degree 32 --hash blake3 --threads 1 -o "$tmp/k.bin" \
        >"$tmp/out" 2>"$tmp/err" || { echo "failed:"; tail -5 "$tmp/err"; }
      grep -E "^proved in|^  composition |^constraint evaluation" "$tmp/out"
      echo "   proof sha256: $(sha256sum "$tmp/k.bin" | cut -c1-16)"
    done
  fi
} 2>&1 | tee -a "$out"
