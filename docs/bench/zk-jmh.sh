#!/usr/bin/env bash
# Zero knowledge against none, measured with JMH (ZeroKnowledgeProveBenchmark: warm JVM, fixed zk seed): per workload
# three alternating pairs A B, B A, A B (A = without, B = zk), one fork each, 1 warmup and 3 measured proofs.
#   docs/bench/zk-jmh.sh <benchmarks.jar> [workload...] > zk-jmh.log     (workloads: mix vm fib; default all three)
# Prints uptime before and after, each fork's JMH iterations, and one summary line per fork:
# workload, mode, the median of its measured proofs (ms) and the proof size the setup printed.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
. "$root/scripts/jdk.sh"
jar="$1"; shift
workloads=("$@")
[ $# -eq 0 ] && workloads=(mix vm fib)
log="$(mktemp)"
fork() {
  local name="$1" mode="$2" params=(-p example="$1")
  [ "$name" = fib ] && params+=(-p logSize=20)
  [ "$mode" = zk ] && params+=(-p zk=true) || params+=(-p zk=false)
  echo "-- java -jar $jar ZeroKnowledgeProveBenchmark.prove ${params[*]} -wi 1 -i 3 -f 1"
  "$JAVA_HOME/bin/java" -jar "$jar" ZeroKnowledgeProveBenchmark.prove "${params[@]}" -wi 1 -i 3 -f 1 > "$log" 2>&1
  grep -E '^(Iteration|# Warmup Iteration)|proof size' "$log" || true
  local median bytes
  median=$(sed -n 's/^Iteration *[0-9]*: *\([0-9.]*\) ms\/op$/\1/p' "$log" | sort -n | sed -n 2p)
  bytes=$(sed -n 's/.*proof size: \([0-9]*\) bytes.*/\1/p' "$log" | head -n 1)
  printf 'SUMMARY %-4s %-5s median %10s ms  proof %9s bytes\n' "$name" "$mode" "$median" "$bytes"
}
uptime
for name in "${workloads[@]}"; do
  fork "$name" plain; fork "$name" zk
  fork "$name" zk; fork "$name" plain
  fork "$name" plain; fork "$name" zk
done
uptime
rm -f "$log"
