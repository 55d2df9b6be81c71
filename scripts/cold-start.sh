#!/usr/bin/env bash
# Whole-process wall time of scripts/jstark commands, cold (a new JVM each run), under several settings
# interleaved (A B C A B C ...), then the median of each. The machine's load is printed before and after.
#   scripts/cold-start.sh [RUNS] -- COMMAND ARGS...                  (default RUNS: 5)
#   scripts/cold-start.sh 5 -- prove --example fib --rows 2^16 --no-report -o /tmp/fib.bin
# compares: plain = JSTARK_DAEMON=off JSTARK_AOT=off JSTARK_CACHE_DIR=none (a JVM per run); aot = the AOT cache, no
# preprocessed cache; aot+cache = both (the cache directory filled by one unmeasured run first), both also with
# JSTARK_DAEMON=off; daemon = JSTARK_DAEMON=on (on: also under CI), no
# preprocessed cache, and daemon+cache: through a warm daemon of its own (started by an unmeasured run, stopped at
# the end); their CPU is the client's plus what the daemon spent during the run (from /proc).
# COLD_START_SETTINGS="plain daemon" keeps only the settings named.
#   scripts/cold-start.sh [RUNS] --vary "ARGS A" "ARGS B" ... -- COMMAND ARGS...
# compares the command with each ARGS appended instead, all with the AOT and the preprocessed cache, a JVM per run.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runs=5
case "${1:-}" in --|--vary) ;; *) runs="$1"; shift ;; esac
cache="$(mktemp -d "${TMPDIR:-/tmp}/jstark-cold.XXXXXX")"
export JSTARK_DAEMON_DIR="$cache/daemon" # a daemon of this measurement's own, never the user's
export JSTARK_DAEMON_IDLE="${JSTARK_DAEMON_IDLE:-900}" # up between its runs however long the others take; stopped at the end
trap 'JSTARK_DAEMON= "$root/scripts/jstark" daemon stop >/dev/null 2>&1; rm -rf "$cache"' EXIT
names=() envs=() extras=()
if [ "${1:-}" = "--vary" ]; then
  shift
  while [ "$1" != "--" ]; do
    names+=("$1") envs+=("JSTARK_DAEMON=off JSTARK_AOT=on JSTARK_CACHE_DIR=$cache") extras+=("$1")
    shift
  done
else
  names=(plain aot aot+cache daemon daemon+cache) extras=("" "" "" "" "")
  envs=("JSTARK_DAEMON=off JSTARK_AOT=off JSTARK_CACHE_DIR=none" "JSTARK_DAEMON=off JSTARK_AOT=on JSTARK_CACHE_DIR=none"
    "JSTARK_DAEMON=off JSTARK_AOT=on JSTARK_CACHE_DIR=$cache"
    "JSTARK_DAEMON=on JSTARK_AOT=off JSTARK_CACHE_DIR=none" "JSTARK_DAEMON=on JSTARK_AOT=off JSTARK_CACHE_DIR=$cache")
fi
if [ -n "${COLD_START_SETTINGS:-}" ]; then
  kept_names=() kept_envs=() kept_extras=()
  for ((s = 0; s < ${#names[@]}; s++)); do
    if [[ " $COLD_START_SETTINGS " == *" ${names[$s]} "* ]]; then
      kept_names+=("${names[$s]}") kept_envs+=("${envs[$s]}") kept_extras+=("${extras[$s]}")
    fi
  done
  names=("${kept_names[@]}") envs=("${kept_envs[@]}") extras=("${kept_extras[@]}")
fi
shift
echo "cold-start: jstark $*; $runs runs per setting, interleaved; $(nproc) cores; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# unmeasured: builds the jar and records the AOT cache if needed, fills the preprocessed cache
env JSTARK_DAEMON=off JSTARK_AOT=on JSTARK_CACHE_DIR="$cache" "$root/scripts/jstark" "$@" >/dev/null 2>&1
# and starts the daemon, warmed by the command once
if [[ " ${envs[*]} " == *JSTARK_DAEMON=on* ]]; then
  env JSTARK_DAEMON=on JSTARK_AOT=off JSTARK_CACHE_DIR="$cache" "$root/scripts/jstark" "$@" >/dev/null 2>&1
fi
# CPU seconds the daemons have used so far (user + system, all of this measurement's daemons)
daemon_cpu() {
  local total=0 pid
  for pid in $(pgrep -f "DaemonServer $JSTARK_DAEMON_DIR/" || true); do
    total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
  done
  echo "$total / $(getconf CLK_TCK)" | bc -l
}
# per run: wall seconds, and the CPU seconds (user + system) of the process and its children, which a
# loaded machine changes much less than the wall
declare -A walls cpus
measured="$cache/time.txt"
for ((i = 0; i < runs; i++)); do
  for ((s = 0; s < ${#names[@]}; s++)); do
    before="$(daemon_cpu)"
    # shellcheck disable=SC2086 # the settings are words
    if ! env ${envs[$s]} /usr/bin/time -o "$measured" -f '%e %U %S' "$root/scripts/jstark" "$@" ${extras[$s]} >/dev/null 2>&1; then
      echo "cold-start: 'jstark $* ${extras[$s]}' failed (${envs[$s]}); run it alone to see why" >&2
      exit 1
    fi
    read -r wall user system < <(tail -n 1 "$measured")
    walls[$s]+="$wall "
    cpus[$s]+="$(printf '%.2f' "$(echo "$user + $system + $(daemon_cpu) - $before" | bc -l)") "
  done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for ((s = 0; s < ${#names[@]}; s++)); do
  printf '  %-12s wall median %6.2f s (runs: %s)  CPU median %6.2f s (runs: %s)\n' "${names[$s]}" \
    "$(echo "${walls[$s]}" | median)" "${walls[$s]% }" "$(echo "${cpus[$s]}" | median)" "${cpus[$s]% }"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
