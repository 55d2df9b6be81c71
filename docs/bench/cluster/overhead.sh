#!/usr/bin/env bash
# The coordinator's time per phase on one worker against the local proof: mix 2^16, RUNS alternating pairs (local, then
# on one worker JVM on loopback), each a cold `jstark prove --report` and, for the cluster, a worker JVM started for that
# run alone (cold too); prints the median of each phase's wall time.
#   docs/bench/cluster/overhead.sh OUTPUT_DIRECTORY [RUNS]
set -u
out="$(cd "${1:?an output directory}" && pwd)"
runs="${2:-3}"
cd "$(dirname "$0")/../../.."
. scripts/jdk.sh
export JSTARK_DAEMON=off
uptime > "$out/uptime-start.txt"
start_worker() {
  rm -f "$out/worker.out"
  "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -XX:+UseParallelGC -Xmx2g \
    -jar jstark-cli/target/jstark.jar worker --listen 127.0.0.1:0 --memory-budget 12G > "$out/worker.out" 2> "$out/worker.log" &
  worker=$!
  for _ in $(seq 1 100); do grep -q listening "$out/worker.out" && break; sleep 0.2; done
  address="$(sed -n 's/^listening //p' "$out/worker.out")"
}
worker=""
trap '[ -z "$worker" ] || { kill "$worker"; wait "$worker"; }' EXIT
for r in $(seq 1 "$runs"); do
  scripts/jstark prove --example mix --size 2^16 --report -o "$out/local.bin" > "$out/local-$r.txt" 2>/dev/null
  start_worker
  scripts/jstark prove --example mix --size 2^16 --report --workers "$address" -o "$out/cluster.bin" > "$out/cluster-$r.txt" 2>/dev/null
  kill "$worker"; wait "$worker"; worker=""
  cmp -s "$out/local.bin" "$out/cluster.bin" || echo "run $r: the proofs differ" >&2
done
uptime > "$out/uptime-end.txt"
python3 - "$out" "$runs" <<'PY'
import re, statistics, sys
out, runs = sys.argv[1], int(sys.argv[2])
phases = ["prove", "prepass", "main_commit", "main_tree", "aux", "aux_tree", "composition", "composition_tree", "ood", "deep", "fri", "queries"]
def walls(path):
    found = {}
    for line in open(path):
        m = re.match(r"^( *)([a-z_]+) +([0-9.]+) +[0-9.]+%", line)
        if m and len(m.group(1)) <= 2 and m.group(2) in phases and m.group(2) not in found:
            found[m.group(2)] = float(m.group(3))
    return found
local = [walls(f"{out}/local-{r}.txt") for r in range(1, runs + 1)]
cluster = [walls(f"{out}/cluster-{r}.txt") for r in range(1, runs + 1)]
print("| phase | local s (median) | coordinator, 1 worker s (median) |")
print("|---|---|---|")
for p in phases:
    l = statistics.median(x[p] for x in local)
    c = statistics.median(x[p] for x in cluster)
    print(f"| {p} | {l:.2f} | {c:.2f} |")
PY
