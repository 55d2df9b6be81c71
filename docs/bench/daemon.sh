#!/usr/bin/env bash
# The figures of docs/bench/daemon.txt (docs/bench/start-up.md, through the warm daemon): cold plain runs against runs through
# a warm daemon (scripts/cold-start.sh, 5 interleaved runs of each, medians), then the warm in-process figure
# (jstark bench scaling); and fib 2^20 with one worker thread against two. About 4 minutes on a quiet 2-core machine.
#   docs/bench/daemon.sh > docs/bench/daemon.txt
set -uo pipefail
cd "$(dirname "$0")/../.."
export COLD_START_SETTINGS="plain daemon daemon+cache"
export JSTARK_DAEMON=off # the set-up and the warm figures: a JVM of their own (cold-start.sh sets it per setting)
m="$(mktemp -d "${TMPDIR:-/tmp}/jstark-daemon-bench.XXXXXX")"
J=scripts/jstark
echo "== $(date -u)  $(uptime)"
$J prove --example fib --rows 2^16 --no-report -o $m/fib.bin --write-key $m/fib.key --write-statement $m/fib.json >/dev/null 2>&1
$J prove --example mix --no-report -o $m/mix.bin --write-key $m/mix.key --write-statement $m/mix.json >/dev/null 2>&1
scripts/cold-start.sh 5 -- verify $m/fib.bin --key $m/fib.key --expect $m/fib.json
scripts/cold-start.sh 5 -- verify $m/mix.bin --key $m/mix.key --expect $m/mix.json
scripts/cold-start.sh 5 -- prove --example fib --rows 2^16 --no-report -o $m/c16.bin
scripts/cold-start.sh 5 -- prove --example fib --rows 2^20 --no-report -o $m/c20.bin
scripts/cold-start.sh 5 -- prove --example mix --no-report -o $m/cmix.bin
echo "== fib 2^20, --threads 1 against --threads 2: a JVM per run (JSTARK_DAEMON=off), then through the default's warm daemon  $(uptime)"
COLD_START_SETTINGS= scripts/cold-start.sh 5 --vary "--threads 1" "--threads 2" -- prove --example fib --rows 2^20 --no-report -o $m/t20.bin
export JSTARK_DAEMON_DIR="$m/daemon"; mkdir -p -m 700 "$JSTARK_DAEMON_DIR"
JSTARK_DAEMON=on $J prove --example fib --rows 2^20 --no-report -o $m/t20.bin >/dev/null 2>&1 # starts and warms it
for r in 1 2 3 4 5; do
  for t in 1 2; do
    s=$(date +%s.%N); JSTARK_DAEMON=on $J prove --example fib --rows 2^20 --no-report --threads $t -o $m/t20.bin >/dev/null 2>&1
    echo "  daemon --threads $t run $r: $(echo "$(date +%s.%N) - $s" | bc -l | cut -c1-5) s wall"
  done
done
JSTARK_DAEMON=on $J daemon stop >/dev/null 2>&1; unset JSTARK_DAEMON_DIR
echo "== warm: bench scaling  $(uptime)"
$J bench scaling --example fib --sizes 2^16,2^20 --runs 5 --warmup 1 --plot none 2>/dev/null | grep -v '^  size'
$J bench scaling --example mix --sizes 2^16 --runs 5 --warmup 1 --plot none 2>/dev/null
echo "== end $(date -u)  $(uptime)"
rm -rf "$m"
