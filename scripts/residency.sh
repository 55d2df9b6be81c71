#!/usr/bin/env bash
# Predicted vs measured peak resident memory of the whole process, each cell a fresh JVM launched as
# scripts/jstark launches (heap fixed at 3/8 of --memory-budget, pre-touched; docs/memory.md).
#   scripts/residency.sh                 # the full table: fib 2^18/2^20/2^22, mix 2^16..2^18, k = 1, 2, 4
#   scripts/residency.sh "fib 2^18 512M" # chosen cells: "example size budget" (k = 1, 2, 4 each)
#   K="1" scripts/residency.sh ...       # other k values
#   PROVE_ARGS="--hash sha256" scripts/residency.sh "mix 2^16 1G"   # more options for every prove
# Prints one row per cell: measured / predicted peak anonymous resident memory (RssAnon), file-backed pages.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export JSTARK_DAEMON=off # a budget runs each command in a JVM of its own anyway (scripts/jstark); said here too
cells=("$@")
if [ ${#cells[@]} -eq 0 ]; then
  cells=("fib 2^18 512M" "fib 2^20 1G" "fib 2^22 2G" "mix 2^16 1G" "mix 2^17 2G" "mix 2^18 4G")
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
printf '%-4s %-5s %-6s %-2s  %12s  %12s  %7s  %12s  %12s  %s\n' example size budget k "anon meas." "anon pred." "meas/pred" \
  "file meas." "file max" "seconds"
for cell in "${cells[@]}"; do
  read -r example size budget <<< "$cell"
  flag="--size"; [ "$example" = fib ] && flag="--rows"
  for k in ${K:-1 2 4}; do
    start=$(date +%s.%N)
    line="$("$root/scripts/jstark" prove --example "$example" "$flag" "$size" --memory-budget "$budget" -k "$k" ${PROVE_ARGS:-} -o "$out/p.bin" 2>&1 \
      | grep '^resident memory:')"
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    bytes="$(sed -n 's/.*\[bytes: anon \([0-9]*\) \([0-9]*\), file \([0-9-]*\) \([0-9]*\)\].*/\1 \2 \3 \4/p' <<< "$line")"
    if [ -z "$bytes" ]; then
      printf '%-4s %-5s %-6s %-2s  %s\n' "$example" "$size" "$budget" "$k" "no figures: ${line:-the proof failed}"
      continue
    fi
    read -r am ap fm fp <<< "$bytes"
    printf '%-4s %-5s %-6s %-2s  %8.1f MiB  %8.1f MiB  %7.3f  %8.1f MiB  %8.1f MiB  %.0f\n' "$example" "$size" "$budget" "$k" \
      "$(bc -l <<< "$am/1048576")" "$(bc -l <<< "$ap/1048576")" "$(bc -l <<< "$am/$ap")" "$(bc -l <<< "$fm/1048576")" \
      "$(bc -l <<< "$fp/1048576")" "$secs"
  done
done
