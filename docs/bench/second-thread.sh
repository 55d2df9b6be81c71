#!/usr/bin/env bash
# The second worker thread, side by side for two builds: warm fib 2^20 on 1 and 2 worker threads (bench scaling:
# 2 unmeasured and 5 measured proofs in one JVM, the median), alternated A B B A so that a change of the machine's
# load hits both builds alike; then the Keccak proof of 1,365 permutations with Plonky3's example options in a
# cold JVM on one thread (the timing report's phases and totals by kind: the share of constraint evaluation), and
# warm on 1 and 2 threads; last the narrow tables' JMH (FibonacciProveBenchmark 2^20 on 1 and 2 threads,
# MixProveBenchmark, BLAKE3), A B B A. Appends everything to docs/bench/second-thread.txt.
# Usage: docs/bench/second-thread.sh BASELINE_CHECKOUT (another checkout of jstark, built; this one is the other build)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
base="$(cd "${1:?usage: docs/bench/second-thread.sh BASELINE_CHECKOUT}" && pwd)"
out="$root/docs/bench/second-thread.txt"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
plonky3="--blowup 2 --queries 100 --grinding 16 --folding 2 --final-degree 1 --hash keccak256"
phases() { awk '/^proved in/ {print; next} /^Timing report/ {p=1} /^Per table/ {p=0} /^Totals by kind/ {t=1} /^Peak memory/ {t=0} p||t'; }
build() { echo "$(basename "$1") $(git -C "$1" rev-parse --short HEAD)"; }
{
  echo "== $(date -u) $(uptime)"
  echo "builds: A = $(build "$base"), B = $(build "$root"); $(nproc) cores"
  for checkout in "$base" "$root" "$root" "$base"; do
    for threads in 1 2; do
      echo "-- $(build "$checkout"): JSTARK_DAEMON=off scripts/jstark bench scaling --example fib --sizes 2^20 --runs 5 --warmup 2 --threads $threads --plot none"
      echo "   load before: $(cut -d' ' -f1-3 /proc/loadavg)"
      JSTARK_DAEMON=off "$checkout/scripts/jstark" bench scaling --example fib --sizes 2^20 --runs 5 --warmup 2 \
        --threads "$threads" --plot none >"$tmp/out" 2>"$tmp/err" || { echo "failed:"; tail -5 "$tmp/err"; }
      awk '/^  size|^2\^/' "$tmp/out"
    done
  done
  for checkout in "$base" "$root"; do
    echo "-- $(build "$checkout"), cold JVM: JSTARK_DAEMON=off scripts/jstark prove --example keccak --hashes 1365 $plonky3 --threads 1 -o proof.bin"
    echo "   load before: $(cut -d' ' -f1-3 /proc/loadavg)"
    JSTARK_DAEMON=off "$checkout/scripts/jstark" prove --example keccak --hashes 1365 $plonky3 --threads 1 -o "$tmp/k.bin" \
      >"$tmp/out" 2>"$tmp/err" || { echo "failed:"; tail -5 "$tmp/err"; }
    phases <"$tmp/out"
  done
  for checkout in "$base" "$root"; do
    for threads in 1 2; do
      echo "-- $(build "$checkout"): JSTARK_DAEMON=off scripts/jstark bench scaling --example keccak --sizes 2^15 --runs 3 --warmup 1 $plonky3 --threads $threads --plot none"
      echo "   load before: $(cut -d' ' -f1-3 /proc/loadavg)"
      JSTARK_DAEMON=off "$checkout/scripts/jstark" bench scaling --example keccak --sizes 2^15 --runs 3 --warmup 1 $plonky3 \
        --threads "$threads" --plot none >"$tmp/out" 2>"$tmp/err" || { echo "failed:"; tail -5 "$tmp/err"; }
      awk '/^  size|^2\^/' "$tmp/out"
    done
  done
  for checkout in "$base" "$root" "$root" "$base"; do
    echo "-- $(build "$checkout"): java -jar jstark-bench/target/benchmarks.jar 'FibonacciProveBenchmark|MixProveBenchmark' -p hash=blake3"
    echo "   load before: $(cut -d' ' -f1-3 /proc/loadavg)"
    (cd "$checkout" && . scripts/jdk.sh && "$JAVA_HOME/bin/java" -jar jstark-bench/target/benchmarks.jar \
      'FibonacciProveBenchmark|MixProveBenchmark' -p hash=blake3 >"$tmp/out" 2>&1) || { echo "failed:"; tail -5 "$tmp/out"; }
    grep -E "^(FibonacciProveBenchmark|MixProveBenchmark)" "$tmp/out"
  done
} 2>&1 | tee -a "$out"
