#!/usr/bin/env bash
# The container test: proves fib 2^20 and the mix inside a memory cgroup (v1, memory.limit_in_bytes, no swap)
# whose limit equals --memory-budget, the CLI launched as scripts/jstark launches it; checks that the prover is
# not killed, that the proof verifies against its key and statement, that its bytes equal an unbounded run's,
# and that the peak anonymous resident memory stays within the budget. Where the budget is below what the
# workload needs, a refusal naming the minimum (exit 2) passes, and the budgets it names are run too: the one it
# says to give (room for the JVM's varying native memory: a refusal there fails) and the minimum (a refusal there,
# with the JVM's native memory measured anew, is said and passes). Needs root and cgroup v1; skips otherwise.
#   scripts/container-test.sh                     # 1 GiB and 512 MiB, fib 2^20 and mix 2^16
#   BUDGETS="1G" WORKLOADS="mix:2^16" scripts/container-test.sh   # a refused budget: the budget it names is proven too
#   PROVE_ARGS="--hash sha256" TIME_LIMIT=300 scripts/container-test.sh   # more prove options (every run); stop a run after 300 s
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export JSTARK_DAEMON=off # every run its own process: the bounded ones inside the cgroup, the others like them
memory_root=/sys/fs/cgroup/memory
if [ ! -w "$memory_root" ] || [ ! -f "$memory_root/memory.limit_in_bytes" ]; then
  echo "SKIP: cgroup v1 memory controller not writable at $memory_root (needs root and cgroup v1)"
  exit 0
fi
work="$(mktemp -d)"
group="$memory_root/jstark-container-test-$$"
cleanup() {
  [ -d "$group" ] && rmdir "$group" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
"$root/scripts/jstark" --help > /dev/null 2>&1 || { echo "FAIL: scripts/jstark does not start"; exit 1; }   # builds the jar outside the limit

bytes_of() { case "$1" in *G) echo $(( ${1%G} << 30 ));; *M) echo $(( ${1%M} << 20 ));; *) echo "$1";; esac; }
failures=0
for workload in ${WORKLOADS:-fib:2^20 mix:2^16}; do
  example="${workload%%:*}"; size="${workload#*:}"
  flag="--size"; [ "$example" = fib ] && flag="--rows"
  "$root/scripts/jstark" prove --example "$example" "$flag" "$size" ${PROVE_ARGS:-} -o "$work/$example-unbounded.bin" > "$work/unbounded.log" 2>&1 \
    || { echo "FAIL: unbounded $example $size did not prove"; cat "$work/unbounded.log"; failures=$((failures + 1)); continue; }
  # a refusal names the smallest budget that plans: that budget is proven too, in a cgroup of its size
  queue=(${BUDGETS:-1G 512M})
  declare -A named_as=()   # budget -> what a refusal named it as: the minimum, or the budget to give (with room)
  next=0
  while [ "$next" -lt "${#queue[@]}" ]; do
    budget="${queue[$next]}"
    next=$((next + 1))
    limit=$(bytes_of "$budget")
    mkdir "$group" || { echo "SKIP: cannot create $group"; exit 0; }
    echo "$limit" > "$group/memory.limit_in_bytes"
    [ -f "$group/memory.memsw.limit_in_bytes" ] && echo "$limit" > "$group/memory.memsw.limit_in_bytes"
    proof="$work/$example-$budget.bin"
    log="$work/$example-$budget.log"
    start=$(date +%s)
    bash -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' _ "$group" timeout "${TIME_LIMIT:-3600}" "$root/scripts/jstark" prove --example "$example" \
      "$flag" "$size" --memory-budget "$budget" ${PROVE_ARGS:-} -o "$proof" --write-key --write-statement > "$log" 2>&1
    code=$?
    secs=$(( $(date +%s) - start ))
    kills=$(sed -n 's/^oom_kill \([0-9]*\)/\1/p' "$group/memory.oom_control")
    max_usage=$(cat "$group/memory.max_usage_in_bytes")
    failcnt=$(cat "$group/memory.failcnt")
    faults=$(sed -n 's/^total_pgmajfault \([0-9]*\)/\1/p' "$group/memory.stat")
    rmdir "$group"
    resident="$(grep '^resident memory:' "$log" | sed 's/ \[bytes.*//')"
    anon=$(sed -n 's/.*\[bytes: anon \([0-9]*\) .*/\1/p' "$log")
    what="$example $size in a $budget cgroup (limit $limit bytes): exit $code, ${secs}s, oom kills ${kills:-?}, cgroup max usage $(( max_usage >> 20 )) MiB, failcnt $failcnt, major faults ${faults:-?}"
    if [ "$code" -eq 2 ] && grep -q 'needs' "$log"; then
      if [ "${named_as[$budget]:-}" = "the budget to give" ]; then
        echo "FAIL: $what; refused at the budget an earlier refusal said to give"; grep -m1 'needs' "$log" | cut -c1-1000
        failures=$((failures + 1)); continue
      fi
      # refused at a named minimum: allowed (the JVM's native memory is measured anew and varies), and said
      echo "PASS (refused${named_as[$budget]:+ at ${named_as[$budget]}}): $what"
      echo "    $(grep -m1 'needs' "$log" | cut -c1-1000)"
      # the budget it says to give (room for the JVM's varying native memory) and the minimum are tried too
      to_give="$(grep -o -m1 -i -- 'give it --memory-budget [0-9]*[MG]' "$log" | sed 's/.* //')"
      minimum="$(grep -o -m1 -- 'as measured now is [0-9]*[MG]' "$log" | sed 's/.* //')"
      floor="$(grep -o -m1 -- 'give at least --memory-budget [0-9]*[MG]' "$log" | sed 's/.* //')"
      [ -n "$floor" ] && [ -z "${named_as[$floor]:-}" ] && named_as[$floor]="the JVM's floor"
      [ -n "$to_give" ] && [ -z "${named_as[$to_give]:-}" ] && named_as[$to_give]="the budget to give"
      [ -n "$minimum" ] && [ -z "${named_as[$minimum]:-}" ] && named_as[$minimum]="the minimum named"
      for named in "$to_give" "$minimum" "$floor"; do
        if [ -n "$named" ] && [ "${#queue[@]}" -lt 6 ] && ! printf '%s\n' "${queue[@]}" | grep -qx -- "$named"; then
          echo "    the refusal names $named (${named_as[$named]}): proving there too"
          queue+=("$named")
        fi
      done
      continue
    fi
    if [ "$code" -ne 0 ]; then
      echo "FAIL: $what"; tail -5 "$log"; failures=$((failures + 1)); continue
    fi
    verdict="$("$root/scripts/jstark" verify "$proof" --key "${proof%.bin}.key" --expect "${proof%.bin}.statement.json" 2>&1)"
    verified=$?
    if [ "$verified" -ne 0 ]; then
      echo "FAIL: $what; the proof does not verify: $verdict"; failures=$((failures + 1)); continue
    fi
    if ! cmp -s "$proof" "$work/$example-unbounded.bin"; then
      echo "FAIL: $what; the proof's bytes differ from the unbounded run's"; failures=$((failures + 1)); continue
    fi
    if [ -n "$anon" ] && [ "$anon" -gt "$limit" ]; then
      echo "FAIL: $what; peak anonymous resident memory $anon bytes is above the budget"; failures=$((failures + 1)); continue
    fi
    echo "PASS: $what; verifies, bytes equal the unbounded run's"
    echo "    $(grep -m1 '^storage plan:' "$log" | cut -c1-200)"
    echo "    $resident"
  done
done
[ "$failures" -eq 0 ] && echo "container test: all passed" || echo "container test: $failures failed"
exit $(( failures > 0 ))
