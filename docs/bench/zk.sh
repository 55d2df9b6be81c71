#!/usr/bin/env bash
# Zero knowledge against none: three ABBA pairs (A = without, B = --zk) per workload, one cold JVM per proof.
# Prints one line per proof: workload, mode, prove seconds, measured off-heap peak MiB, resident anonymous peak, bytes.
#   docs/bench/zk.sh > zk.log
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$(mktemp -d)"
run() {
  local name="$1" mode="$2"; shift 2
  local flags=()
  [ "$mode" = zk ] && flags=(--zk)
  local log="$out/run.log"
  JSTARK_DAEMON=off "$root/scripts/jstark" prove "$@" "${flags[@]}" -o "$out/proof.bin" > "$log" 2>&1
  local seconds offheap rss bytes
  seconds=$(sed -n 's/^proved in \([0-9.]*\) s$/\1/p' "$log")
  offheap=$(awk '$1 == "off-heap" && $2 ~ /^[0-9]/ {print $3; exit}' "$log")
  rss=$(sed -n 's/^resident memory: peak anonymous \([0-9.]* [GMK]iB\).*/\1/p' "$log")
  bytes=$(stat -c %s "$out/proof.bin")
  printf '%-10s %-4s %8s s  off-heap %9s MiB  rss-anon %10s  %9s bytes\n' "$name" "$mode" "$seconds" "$offheap" "$rss" "$bytes"
}
uptime
for workload in "fib --example fib --size 2^20" "vm --example vm" "mix --example mix"; do
  set -- $workload
  name="$1"; shift
  for pair in 1 2 3; do
    run "$name" plain "$@"; run "$name" zk "$@"; run "$name" zk "$@"; run "$name" plain "$@"
  done
done
uptime
rm -rf "$out"
