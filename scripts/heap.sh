# Sourced by scripts/jstark: the JVM heap flags that go with the memory budget (docs/memory.md).
# With a budget (--memory-budget, else JSTARK_MEMORY_BUDGET) the heap is a fixed 3/8 of it (-Xms = -Xmx,
# touched at start-up), so that the heap the kernel sees is known in advance and the storage planner counts
# it; without one, -Xmx16g. JSTARK_JAVA_OPTS comes after these flags: a -Xmx/-Xms there wins, and is said.
JSTARK_HEAP_SHARE_NUMERATOR=3
JSTARK_HEAP_SHARE_DENOMINATOR=8
JSTARK_HEAP_FLOOR_MIB=64

# Below this budget the JVM itself does not fit: its smallest fixed heap (the floor above), pre-touched, with
# its native memory and files (measured: 81 MiB native and 21 MiB of files beside a 64 MiB heap, so 166 MiB,
# and the plan's 10% margin) -- a JVM started there is killed by a memory cgroup before it can refuse.
JSTARK_JVM_FLOOR_MIB=192

# Refuses (non-zero, one line on stderr) a budget the JVM alone cannot fit, before a JVM is started, for the
# commands that plan under the budget (prove, plan, bench, demo: their RunOptions take --memory-budget).
jstark_check_budget_floor() {
  case "${1:-}" in prove|plan|bench|demo) ;; *) return 0 ;; esac
  local budget bytes
  budget="$(jstark_budget "$@")"
  bytes="$(jstark_budget_bytes "$budget")"
  if [ -n "$bytes" ] && [ "$bytes" -lt $(( JSTARK_JVM_FLOOR_MIB << 20 )) ]; then
    echo "jstark: the memory budget $budget is below what the JVM itself needs (${JSTARK_JVM_FLOOR_MIB}M: a ${JSTARK_HEAP_FLOOR_MIB} MiB heap, its native memory and files), so no proof plans there: give at least --memory-budget ${JSTARK_JVM_FLOOR_MIB}M (JSTARK_MEMORY_BUDGET=${JSTARK_JVM_FLOOR_MIB}M), and the plan names the budget this proof needs" >&2
    return 1
  fi
}

jstark_heap_flags() {
  local bytes
  bytes="$(jstark_budget_bytes "$(jstark_budget "$@")")"
  if [ -z "$bytes" ]; then
    echo "-Xmx16g"
    return
  fi
  local heap_mib=$(( bytes / JSTARK_HEAP_SHARE_DENOMINATOR * JSTARK_HEAP_SHARE_NUMERATOR / 1048576 ))
  [ "$heap_mib" -lt "$JSTARK_HEAP_FLOOR_MIB" ] && heap_mib=$JSTARK_HEAP_FLOOR_MIB
  # the rule goes with the flags (io.jstark.prover.memory.HeapRule): a refusal then names the smallest budget
  # whose own heap, by this rule, fits
  local rule="-Djstark.heap.share=${JSTARK_HEAP_SHARE_NUMERATOR}/${JSTARK_HEAP_SHARE_DENOMINATOR} -Djstark.heap.floor-mib=${JSTARK_HEAP_FLOOR_MIB}"
  case " ${JSTARK_JAVA_OPTS:-} " in
    *" -Xmx"*|*" -Xms"*)
      # the heap is the user's: a larger budget would not change it, so the rule is not passed
      rule=""
      echo "jstark: JSTARK_JAVA_OPTS sets the heap, replacing -Xmx${heap_mib}m derived from the memory budget" >&2 ;;
  esac
  echo "-Xms${heap_mib}m -Xmx${heap_mib}m -XX:+AlwaysPreTouch $rule"
}

# The memory budget the command line gives (--memory-budget, the last one), else JSTARK_MEMORY_BUDGET; as written.
jstark_budget() {
  local budget="${JSTARK_MEMORY_BUDGET:-}" arg prev=""
  for arg in "$@"; do
    case "$arg" in
      --memory-budget=*) budget="${arg#--memory-budget=}" ;;
      *) [ "$prev" = "--memory-budget" ] && budget="$arg" ;;
    esac
    prev="$arg"
  done
  printf '%s' "$budget"
}

# Bytes of a budget as ByteSize writes them (digits, optional K/M/G/T); empty for none, 'unlimited' or nonsense
# (the command line then reports nonsense itself).
jstark_budget_bytes() {
  local text shift=0
  text="$(printf '%s' "$1" | tr -d '[:space:]')"
  case "$text" in
    *[kK]) shift=10 ;; *[mM]) shift=20 ;; *[gG]) shift=30 ;; *[tT]) shift=40 ;;
  esac
  [ "$shift" -gt 0 ] && text="${text%?}"
  case "$text" in
    ''|*[!0-9]*) return ;;
  esac
  [ "${#text}" -gt $(( shift > 0 ? 9 : 18 )) ] && return
  local bytes=$(( 10#$text << shift ))
  [ "$bytes" -gt 0 ] && echo "$bytes"
}
