#!/usr/bin/env bash
# Closed off-heap blocks kept mapped for reuse (RamAllocator) against giving them back to the C library, this
# checkout against another one, in the order base, this, this, base: through each checkout's own warm daemon, one
# unmeasured proof, then three proofs each right after the last one and three after six seconds of idleness (a
# virtual machine's kernel may hand free pages back to its host after two), printing each proof's wall time and its
# main_commit and composition phases, and the daemon's resident anonymous memory after the last proof. Workloads:
# the Keccak table with Plonky3's options (1,365 permutations, blowup 2, 100 queries, 16 grinding bits, folding 2,
# final degree 1, keccak256) on one and two worker threads. Then the narrow tables' JMH single shots
# (FibonacciProveBenchmark on one and two threads, MixProveBenchmark), 10 measured shots per run, medians of the 20 a
# side. Both checkouts must be built (jstark-cli and jstark-bench packaged). Appends to docs/bench/retained-blocks.txt.
# Usage: docs/bench/retained-blocks.sh BASE_CHECKOUT [THIS_CHECKOUT [all|warm|jmh]]  (THIS_CHECKOUT defaults to this
# one; the third argument runs both parts, the default, or only the warm proofs or only the JMH shots)
set -euo pipefail
usage="usage: $0 BASE_CHECKOUT [THIS_CHECKOUT [all|warm|jmh]]"
if [ $# -lt 1 ]; then
  echo "$usage" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/../.." && pwd)"
base="$(cd "$1" && pwd)"
this="$(cd "${2:-$root}" && pwd)"
parts="${3:-all}"
case "$parts" in
  all | warm | jmh) ;;
  *)
    echo "$usage" >&2
    exit 2
    ;;
esac
. "$root/scripts/jdk.sh"
export JSTARK_DAEMON=on
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
. "$root/docs/bench/warm-proofs.sh"

# One proof through checkout $1's daemon after $2 seconds of idleness, printed with its phases.
proof() {
  sleep "$2"
  "$1/scripts/jstark" "${prove[@]}" >"$tmp/out" 2>&1 || failed "$1"
  echo "   after ${2} s idle: $(grep -o 'proved in [0-9.]* s' "$tmp/out");$(awk \
    '/^  [a-z_]+ +[0-9]/ && $1 ~ /^(main_commit|composition)$/ && !seen[$1]++ {printf " %s %s s", $1, $2}' "$tmp/out")"
}

{
  echo "== $(date -u) $(uptime)"
  echo "this: $(git -C "$this" describe --always --dirty), base: $(git -C "$base" describe --always --dirty); $(nproc) cores"
  for threads in 1 2; do
    [ "$parts" = jmh ] && break
    prove=(prove --example keccak --hashes 1365 --blowup 2 --queries 100 --grinding 16 --folding 2 --final-degree 1
      --hash keccak256 --threads "$threads" -o "$tmp/p.bin")
    for side in base this this base; do
      dir=$([ "$side" = base ] && echo "$base" || echo "$this")
      echo "-- $side: warm keccak, $threads threads, load $(cut -d' ' -f1-3 /proc/loadavg)"
      "$dir/scripts/jstark" daemon stop >/dev/null 2>&1 || true
      "$dir/scripts/jstark" "${prove[@]}" >"$tmp/out" 2>&1 || failed "$dir"
      for idle in 0 6 0 6 0 6; do
        proof "$dir" "$idle"
      done
      pid=$(pgrep -f "java.*$dir/.*jstark" | head -1 || true)
      [ -n "$pid" ] && echo "   daemon resident anonymous after the last proof: $(awk '/^RssAnon/ {print $2, $3}' "/proc/$pid/status")"
      "$dir/scripts/jstark" daemon stop >/dev/null 2>&1 || true
    done
  done
  [ "$parts" = warm ] || narrow_jmh "$base" "$this"
} | tee -a "$root/docs/bench/retained-blocks.txt"
