# Sourced by scripts/jstark: the JVM heap flags that go with the memory budget (docs/memory.md).
# With a budget (--memory-budget, else JSTARK_MEMORY_BUDGET) the heap is a fixed 3/8 of it (-Xms = -Xmx,
# touched at start-up), so that the heap the kernel sees is known in advance and the storage planner counts
# it; without one, -Xmx16g. JSTARK_JAVA_OPTS comes after these flags: a -Xmx/-Xms there wins, and is said.
jstark_heap_flags() {
  local bytes
  bytes="$(jstark_budget_bytes "$(jstark_budget "$@")")"
  if [ -z "$bytes" ]; then
    echo "-Xmx16g"
    return
  fi
  local heap_mib=$(( bytes / 8 * 3 / 1048576 ))
  [ "$heap_mib" -lt 64 ] && heap_mib=64
  echo "-Xms${heap_mib}m -Xmx${heap_mib}m -XX:+AlwaysPreTouch"
  case " ${JSTARK_JAVA_OPTS:-} " in
    *" -Xmx"*|*" -Xms"*) echo "jstark: JSTARK_JAVA_OPTS sets the heap, replacing -Xmx${heap_mib}m derived from the memory budget" >&2 ;;
  esac
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
