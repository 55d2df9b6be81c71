#!/usr/bin/env bash
# The cluster figures of docs/cluster.md: mix 2^16 locally and on one worker, fib 2^22 on one worker, mix 2^18 on three
# workers, each with the timing report; the workers are JVMs of their own on loopback, stopped at the end.
#   docs/bench/cluster/measure.sh OUTPUT_DIRECTORY
set -u
out="$(cd "${1:?an output directory}" && pwd)"
cd "$(dirname "$0")/../../.."
. scripts/jdk.sh
export JSTARK_DAEMON=off
J="$JAVA_HOME/bin/java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -XX:+UseParallelGC"
start_workers() { # count budget
  pids=(); addrs=()
  for i in $(seq 1 "$1"); do
    $J -Xmx2g -jar jstark-cli/target/jstark.jar worker --listen 127.0.0.1:0 --memory-budget "$2" > "$out/w$i.out" 2> "$out/w$i.log" &
    pids+=("$!")
  done
  for i in $(seq 1 "$1"); do
    for _ in $(seq 1 100); do grep -q listening "$out/w$i.out" && break; sleep 0.2; done
    addrs+=("$(sed -n 's/^listening //p' "$out/w$i.out")")
  done
  workers="$(IFS=,; echo "${addrs[*]}")"
}
stop_workers() { for p in "${pids[@]}"; do kill "$p"; done; for p in "${pids[@]}"; do wait "$p"; done; }
uptime > "$out/uptime-start.txt"
start_workers 1 12G
scripts/jstark prove --example mix --size 2^16 --report -o "$out/local16.bin" > "$out/local16.txt" 2>/dev/null
scripts/jstark prove --example mix --size 2^16 --report --workers "$workers" -o "$out/c16.bin" > "$out/c16-1.txt" 2>/dev/null
scripts/jstark prove --example fib --size 2^22 --report --workers "$workers" -o "$out/fib22.bin" > "$out/fib22-1.txt" 2>/dev/null
stop_workers
start_workers 3 8G
scripts/jstark prove --example mix --size 2^18 --report --workers "$workers" -o "$out/c18.bin" > "$out/c18-3.txt" 2>/dev/null
stop_workers
uptime > "$out/uptime-end.txt"
cmp "$out/local16.bin" "$out/c16.bin" && echo "mix16 identical" > "$out/cmp.txt"
echo finished > "$out/done"
