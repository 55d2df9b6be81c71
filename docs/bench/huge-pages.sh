#!/usr/bin/env bash
# Off-heap buffers with and without the transparent-huge-page advice (RamAllocator; -Djstark.memory.hugepages=false
# turns it off), same build, alternated on off off on: a cold fib 2^20 proof under /usr/bin/time (page faults,
# user and system CPU), then warm fib 2^20 on 1 and 2 worker threads (bench scaling: 2 unmeasured and 5 measured
# proofs in one JVM). Appends everything to docs/bench/huge-pages.txt. Needs `jstark_mvn install -DskipTests` first.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$root/docs/bench/huge-pages.txt"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
jstark="$root/scripts/jstark"
{
  echo "== $(date -u) $(uptime)"
  echo "build: $(git -C "$root" rev-parse --short HEAD); $(nproc) cores; THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled)"
  for advice in true false false true; do
    export JSTARK_JAVA_OPTS="-Djstark.memory.hugepages=$advice"
    echo "-- huge pages $advice, cold JVM: JSTARK_DAEMON=off scripts/jstark prove --example fib --size 2^20 --threads 1"
    /usr/bin/time -v env JSTARK_DAEMON=off "$jstark" prove --example fib --size 2^20 --threads 1 -o "$tmp/f.bin" >"$tmp/out" 2>&1 \
      || { echo "failed:"; tail -5 "$tmp/out"; }
    grep -E "^proved in|User time|System time|Minor" "$tmp/out"
    for threads in 1 2; do
      echo "-- huge pages $advice: JSTARK_DAEMON=off scripts/jstark bench scaling --example fib --sizes 2^20 --runs 5 --warmup 2 --threads $threads --plot none"
      echo "   load before: $(cut -d' ' -f1-3 /proc/loadavg)"
      JSTARK_DAEMON=off "$jstark" bench scaling --example fib --sizes 2^20 --runs 5 --warmup 2 --threads "$threads" --plot none \
        >"$tmp/out" 2>&1 || { echo "failed:"; tail -5 "$tmp/out"; }
      awk '/^  size|^2\^/' "$tmp/out"
    done
  done
} 2>&1 | tee -a "$out"
