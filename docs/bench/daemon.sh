#!/usr/bin/env bash
# The figures of docs/bench/daemon.txt (README "Start-up", the warm daemon): cold plain runs against runs through
# a warm daemon (scripts/cold-start.sh, 5 interleaved runs of each, medians), then the warm in-process figure
# (jstark bench scaling). About 10 minutes on a loaded 2-core machine.
#   docs/bench/daemon.sh > docs/bench/daemon.txt
set -uo pipefail
cd "$(dirname "$0")/../.."
export COLD_START_SETTINGS="plain daemon daemon+cache"
export JSTARK_DAEMON=off # the set-up and the warm figures: a JVM of their own (cold-start.sh sets it per setting)
m="${TMPDIR:-/tmp}/jstark-daemon-bench"; rm -rf "$m"; mkdir -p "$m"
J=scripts/jstark
echo "== $(date -u)  $(uptime)"
$J prove --example fib --rows 2^16 --no-report -o $m/fib.bin --write-key $m/fib.key --write-statement $m/fib.json >/dev/null 2>&1
$J prove --example mix --no-report -o $m/mix.bin --write-key $m/mix.key --write-statement $m/mix.json >/dev/null 2>&1
scripts/cold-start.sh 5 -- verify $m/fib.bin --key $m/fib.key --expect $m/fib.json
scripts/cold-start.sh 5 -- verify $m/mix.bin --key $m/mix.key --expect $m/mix.json
scripts/cold-start.sh 5 -- prove --example fib --rows 2^16 --no-report -o $m/c16.bin
scripts/cold-start.sh 5 -- prove --example fib --rows 2^20 --no-report -o $m/c20.bin
scripts/cold-start.sh 5 -- prove --example mix --no-report -o $m/cmix.bin
echo "== warm: bench scaling  $(uptime)"
$J bench scaling --example fib --sizes 2^16,2^20 --runs 5 --warmup 1 --plot none 2>/dev/null | grep -v '^  size'
$J bench scaling --example mix --sizes 2^16 --runs 5 --warmup 1 --plot none 2>/dev/null
echo "== end $(date -u)  $(uptime)"
rm -rf "$m"
