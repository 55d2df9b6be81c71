#!/usr/bin/env bash
# The composition's constraint program compiled once per table definition and height (CompositionPrograms) instead of
# three times per proof (twice for the memory plan, once in round 2), this checkout against another one, in the order
# base, this, this, base: warm proofs of the Keccak table with Plonky3's options (1,365 permutations, blowup 2,
# 100 queries, 16 grinding bits, folding 2, final degree 1, keccak256) on one and two worker threads and of vm-keccak
# 2^10 on two, each checkout through its own warm daemon (one unmeasured and three measured proofs, the
# compile_constraints span printed); then cold Keccak proofs, one JVM per proof (JSTARK_DAEMON=off), on one thread;
# then docs/bench/ProgramLocality.java (the source next to this script) with THIS_CHECKOUT's bench jar (the
# interpreter on a program just compiled and on the same program after a full collection). Both checkouts must be built (jstark-cli and jstark-bench packaged).
# Appends to docs/bench/compiled-programs.txt.
# Usage: docs/bench/compiled-programs.sh BASE_CHECKOUT [THIS_CHECKOUT [all|proofs|locality]]  (THIS_CHECKOUT defaults
# to this one; the third argument runs both parts, the default, or only the proofs or only ProgramLocality)
set -euo pipefail
usage="usage: $0 BASE_CHECKOUT [THIS_CHECKOUT [all|proofs|locality]]"
if [ $# -lt 1 ]; then
  echo "$usage" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/../.." && pwd)"
base="$(cd "$1" && pwd)"
this="$(cd "${2:-$root}" && pwd)"
parts="${3:-all}"
case "$parts" in
  all | proofs | locality) ;;
  *)
    echo "$usage" >&2
    exit 2
    ;;
esac
. "$root/scripts/jdk.sh"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
warm_phases="composition"
warm_operations="compile_constraints"
. "$root/docs/bench/warm-proofs.sh"
keccak=(prove --example keccak --hashes 1365 --blowup 2 --queries 100 --grinding 16 --folding 2 --final-degree 1
  --hash keccak256)
{
  echo "== $(date -u) $(uptime)"
  echo "this: $(git -C "$this" describe --always --dirty), base: $(git -C "$base" describe --always --dirty); $(nproc) cores"
  export JSTARK_DAEMON=on
  for workload in keccak-1 keccak-2 vm-keccak-2; do
    [ "$parts" = locality ] && break
    threads="${workload##*-}"
    if [ "$workload" = vm-keccak-2 ]; then
      prove=(prove --example vm-keccak --size 2^10 --threads "$threads" -o "$tmp/p.bin")
    else
      prove=("${keccak[@]}" --threads "$threads" -o "$tmp/p.bin")
    fi
    for side in base this this base; do
      dir=$([ "$side" = base ] && echo "$base" || echo "$this")
      echo "-- $side: warm ${workload%-*}, $threads threads, load $(cut -d' ' -f1-3 /proc/loadavg)"
      warm "$dir"
    done
  done
  export JSTARK_DAEMON=off
  for side in base this this base; do
    [ "$parts" = locality ] && break
    dir=$([ "$side" = base ] && echo "$base" || echo "$this")
    echo "-- $side: cold keccak, 1 thread (a JVM per proof), load $(cut -d' ' -f1-3 /proc/loadavg)"
    start=$(date +%s%N)
    "$dir/scripts/jstark" "${keccak[@]}" --threads 1 -o "$tmp/p.bin" >"$tmp/out" 2>&1 || failed "$dir"
    echo "   $(grep -o 'proved in [0-9.]* s' "$tmp/out") (command $((($(date +%s%N) - start) / 1000000)) ms);$(
      awk '/^ +compile_constraints +[0-9]+ +[0-9.]+/ && !seen++ {printf " compile_constraints %s s", $3}' "$tmp/out")"
  done
  if [ "$parts" != proofs ]; then
    echo "-- this: ProgramLocality, load $(cut -d' ' -f1-3 /proc/loadavg)"
    "$JAVA_HOME/bin/javac" -d "$tmp/locality" -cp "$this/jstark-bench/target/benchmarks.jar" \
      "$root/docs/bench/ProgramLocality.java"
    "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector \
      -cp "$tmp/locality:$this/jstark-bench/target/benchmarks.jar" ProgramLocality 2>&1 | grep -v '^WARNING'
  fi
} | tee -a "$root/docs/bench/compiled-programs.txt"
