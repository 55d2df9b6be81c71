#!/usr/bin/env bash
# The memory figure of docs/cluster.md: the mix at 2^18, whose predicted peak on one machine is above each worker's
# budget, proven on three workers of BUDGET each (default 3G; plain RAM: workers never spill); each worker logs its
# process's peak resident anonymous memory while the proof's tables lived there, and its VmHWM. The proof is compared
# with the local proof's bytes.
# The coordinator's own memory (its timing report's peaks) is in c18-3.txt, whatever the size.
#   docs/bench/cluster/memory.sh OUTPUT_DIRECTORY [BUDGET] [SIZE]      (SIZE default 2^18)
set -u
out="$(cd "${1:?an output directory}" && pwd)"
budget="${2:-3G}"
size="${3:-2^18}"
cd "$(dirname "$0")/../../.."
. scripts/jdk.sh
export JSTARK_DAEMON=off
J="$JAVA_HOME/bin/java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -XX:+UseParallelGC"
uptime > "$out/uptime-start.txt"
scripts/jstark plan --example mix --size "$size" > "$out/plan18.txt" 2>&1
pids=(); addrs=()
for i in 1 2 3; do
  $J -Xmx1g -jar jstark-cli/target/jstark.jar worker --listen 127.0.0.1:0 --memory-budget "$budget" > "$out/w$i.out" 2> "$out/w$i.log" &
  pids+=("$!")
done
for i in 1 2 3; do
  for _ in $(seq 1 100); do grep -q listening "$out/w$i.out" && break; sleep 0.2; done
  addrs+=("$(sed -n 's/^listening //p' "$out/w$i.out")")
done
scripts/jstark prove --example mix --size "$size" --workers "$(IFS=,; echo "${addrs[*]}")" -o "$out/c18.bin" > "$out/c18-3.txt" 2>&1
for p in "${pids[@]}"; do kill "$p"; done
for p in "${pids[@]}"; do wait "$p"; done
scripts/jstark prove --example mix --size "$size" -o "$out/local18.bin" > "$out/local18.txt" 2>&1
cmp "$out/c18.bin" "$out/local18.bin" > "$out/cmp.txt" 2>&1 && echo "identical bytes" >> "$out/cmp.txt"
uptime > "$out/uptime-end.txt"
grep -h "opened tables\|closed" "$out"/w*.log > "$out/workers.txt"
echo finished > "$out/done"
