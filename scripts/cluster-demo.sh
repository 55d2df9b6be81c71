#!/usr/bin/env bash
# Proves the mix across three workers on this machine: starts three `jstark worker` processes on loopback (plaintext:
# loopback only), proves with `jstark prove --workers` (which verifies before writing), checks the proof with
# `jstark verify` against its key and statement and against the local proof's bytes, and stops the workers; no
# process is left behind, whatever step fails.
#   scripts/cluster-demo.sh            # mix at its default size
#   scripts/cluster-demo.sh 2^14       # mix, tallest table 2^14 rows
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
size="${1:-}"
# every command in a JVM of its own: a warm daemon would outlive the demo
export JSTARK_DAEMON=off
work="$(mktemp -d)"
pids=()
stop_workers() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  pids=()
}
trap 'stop_workers; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# build the jar once, before three workers would each try to
"$root/scripts/jstark" --version >/dev/null

for i in 1 2 3; do
  "$root/scripts/jstark" worker --listen 127.0.0.1:0 --memory-budget 1G >"$work/worker-$i.out" 2>"$work/worker-$i.log" &
  pids+=("$!")
done
addresses=()
for i in 1 2 3; do
  for _ in $(seq 1 300); do
    if grep -q '^listening ' "$work/worker-$i.out" 2>/dev/null; then break; fi
    if ! kill -0 "${pids[$((i - 1))]}" 2>/dev/null; then
      echo "cluster-demo: worker $i did not start:" >&2
      cat "$work/worker-$i.log" >&2
      exit 1
    fi
    sleep 0.2
  done
  address="$(sed -n 's/^listening //p' "$work/worker-$i.out")"
  [ -n "$address" ] || { echo "cluster-demo: worker $i did not say where it listens" >&2; exit 1; }
  addresses+=("$address")
done
workers="$(IFS=,; echo "${addresses[*]}")"
echo "cluster-demo: three workers on $workers"

size_option=()
[ -z "$size" ] || size_option=(--size "$size")
"$root/scripts/jstark" prove --example mix "${size_option[@]}" --workers "$workers" -o "$work/cluster.bin" --write-key --write-statement
"$root/scripts/jstark" verify "$work/cluster.bin" --key "$work/cluster.key" --expect "$work/cluster.statement.json"
"$root/scripts/jstark" prove --example mix "${size_option[@]}" -o "$work/local.bin" >/dev/null
if cmp -s "$work/cluster.bin" "$work/local.bin"; then
  echo "cluster-demo: the cluster's proof is byte for byte the local proof"
else
  echo "cluster-demo: the cluster's proof differs from the local proof" >&2
  exit 1
fi
for i in 1 2 3; do
  grep -h 'opened tables' "$work/worker-$i.log" | sed "s/^/cluster-demo: worker $i: /" || true
done
stop_workers
echo "cluster-demo: workers stopped"
