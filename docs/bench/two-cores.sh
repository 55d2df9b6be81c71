#!/usr/bin/env bash
# What two cores of this machine give two independent proofs, beside what a second worker thread gives one proof.
# Through two warm daemons of this checkout (told apart by a harmless system property in JSTARK_JAVA_OPTS, which the
# launcher keys its daemons by), per workload and per round: one one-thread proof alone, then two one-thread proofs
# at once (one per daemon, started together), then one two-thread proof alone; a proof alone follows an unmeasured
# one of its kind on its daemon, so that no measured proof is the first after a change of thread count. Two proofs
# at once share no pool, join or serial step, only the machine: 2 x alone / at once shows how far the machine's
# shared parts (memory bandwidth, the last-level cache, the host) let two busy cores go on that workload. It is not
# a strict bound for one proof on two threads, which holds one working set where two processes hold two. Workloads:
# the Keccak table with Plonky3's options (1,365 permutations, blowup 2, 100 queries, 16 grinding bits, folding 2,
# final degree 1, keccak256) and fib 2^20 with the default options. Prints every wall time (the 'proved in' figure)
# and the medians; appends them to docs/bench/two-cores.txt once the run is complete. 'jstark daemon stop' stops
# every jstark daemon of this user, and the script runs it before each workload and at the end.
# Usage: docs/bench/two-cores.sh [ROUNDS]  (default 5)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
rounds="${1:-5}"
. "$root/scripts/jdk.sh"
export JSTARK_DAEMON=on
tmp="$(mktemp -d)"
jstark="$root/scripts/jstark"
stop_daemons() { "$jstark" daemon stop >/dev/null 2>&1 || true; }
trap 'stop_daemons; rm -rf "$tmp"' EXIT

# One proof through daemon $1 with $2 worker threads, its 'proved in' seconds written to file $3.
prove_on() {
  rm -f "$3"
  JSTARK_JAVA_OPTS="-Djstark.bench.side=$1" "$jstark" "${args[@]}" --threads "$2" -o "$tmp/$1.bin" \
    >"$tmp/$1.out" 2>&1 || { cat "$tmp/$1.out"; return 1; }
  grep -o 'proved in [0-9.]* s' "$tmp/$1.out" | awk '{print $3}' >"$3"
}

median() { sort -g "$1" | awk '{v[NR] = $1} END {print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }
ratio() { awk -v x="$1" -v y="$2" 'BEGIN {printf "%.2f", x / y}'; }

{
  echo "== $(date -u) $(uptime)"
  echo "build $(git -C "$root" describe --always --dirty); $(nproc) cores"
  for workload in keccak fib; do
    if [ "$workload" = keccak ]; then
      args=(prove --example keccak --hashes 1365 --blowup 2 --queries 100 --grinding 16 --folding 2 --final-degree 1
        --hash keccak256)
    else
      args=(prove --example fib --size 2^20)
    fi
    stop_daemons
    for side in a b; do
      prove_on "$side" 1 "$tmp/discard"
      prove_on "$side" 1 "$tmp/discard"
    done
    : >"$tmp/alone"
    : >"$tmp/together"
    : >"$tmp/two"
    echo "-- $workload: ${args[*]:1}"
    for round in $(seq "$rounds"); do
      prove_on a 1 "$tmp/discard"
      prove_on a 1 "$tmp/alone-now"
      prove_on a 1 "$tmp/ta" &
      first=$!
      prove_on b 1 "$tmp/tb" &
      second=$!
      wait "$first"
      wait "$second"
      prove_on a 2 "$tmp/discard"
      prove_on a 2 "$tmp/two-now"
      cat "$tmp/alone-now" >>"$tmp/alone"
      cat "$tmp/ta" "$tmp/tb" >>"$tmp/together"
      cat "$tmp/two-now" >>"$tmp/two"
      echo "   round $round (load $(cut -d' ' -f1-3 /proc/loadavg)): alone $(cat "$tmp/alone-now") s;" \
        "two at once $(cat "$tmp/ta") s and $(cat "$tmp/tb") s; two threads $(cat "$tmp/two-now") s"
    done
    a=$(median "$tmp/alone")
    t=$(median "$tmp/together")
    w=$(median "$tmp/two")
    echo "   medians: alone $a s, each of two at once $t s, two threads $w s"
    echo "   two cores give two proofs at once $(ratio "$(awk -v a="$a" 'BEGIN {print 2 * a}')" "$t")x;" \
      "a second worker thread gives one proof $(ratio "$a" "$w")x"
  done
  stop_daemons
} | tee "$tmp/log"
cat "$tmp/log" >>"$root/docs/bench/two-cores.txt"
