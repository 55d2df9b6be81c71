#!/usr/bin/env bash
# Whole-process wall time of scripts/jstark commands, cold (a new JVM each run), under several settings
# interleaved (A B C A B C ...), then the median of each: how the AOT cache and the cache of preprocessed
# commitments change a first proof or verification. The machine's load is printed before and after.
#   scripts/cold-start.sh [RUNS] -- COMMAND ARGS...      (default RUNS: 5)
#   scripts/cold-start.sh 5 -- prove --example fib --rows 2^16 --no-report -o /tmp/fib.bin
# Settings (environment of each run): plain = JSTARK_AOT=off JSTARK_CACHE_DIR=none; aot = the AOT cache,
# no preprocessed cache; aot+cache = both (the cache directory is filled by one unmeasured run first).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runs=5
if [ "${1:-}" != "--" ]; then runs="$1"; shift; fi
[ "${1:-}" = "--" ] && shift
cache="$(mktemp -d "${TMPDIR:-/tmp}/jstark-cold.XXXXXX")"
trap 'rm -rf "$cache"' EXIT
settings=("plain:JSTARK_AOT=off JSTARK_CACHE_DIR=none" "aot:JSTARK_AOT=on JSTARK_CACHE_DIR=none" "aot+cache:JSTARK_AOT=on JSTARK_CACHE_DIR=$cache")
echo "cold-start: jstark $*; $runs runs per setting, interleaved; $(nproc) cores; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# unmeasured: builds the jar and records the AOT cache if needed, fills the preprocessed cache
env JSTARK_CACHE_DIR="$cache" "$root/scripts/jstark" "$@" >/dev/null 2>&1
declare -A times
for ((i = 0; i < runs; i++)); do
  for s in "${settings[@]}"; do
    name="${s%%:*}"
    start=$(date +%s%N)
    env ${s#*:} "$root/scripts/jstark" "$@" >/dev/null 2>&1
    times[$name]+="$(( ($(date +%s%N) - start) / 1000000 )) "
  done
done
for s in "${settings[@]}"; do
  name="${s%%:*}"
  median=$(echo ${times[$name]} | tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  printf '  %-10s median %6.3f s   runs (ms): %s\n' "$name" "$(echo "$median / 1000" | bc -l)" "${times[$name]}"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
