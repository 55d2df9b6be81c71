# Sourced by the scripts that time warm proofs of two checkouts side by side (merkle-gather.sh,
# constraint-fusion.sh, lde-columns.sh, composition-blocks.sh, narrow-second-thread.sh). They set: tmp (a scratch directory), prove (the jstark
# arguments) and optionally warm_phases (an awk pattern of the timing report's phase names to print, default main_commit|composition) and
# warm_operations (an awk pattern of its sub-operations' names, e.g. lde|merkle, the first of each name; default none).
# It also gives jars (lde-threads.sh sources it for that alone): the classpath of checkout $1's jstark-math and jstark-instrument jars, for the LDE kernel runs
# (docs/bench/LdeThreads.java).

jars() { echo "$(ls "$1"/jstark-math/target/jstark-math-*.jar | grep -v sources | head -1):$(ls "$1"/jstark-instrument/target/jstark-instrument-*.jar | grep -v sources | head -1)"; }

# Prints the last command's output, stops checkout $1's daemon and exits.
failed() {
  cat "$tmp/out"
  "$1/scripts/jstark" daemon stop >/dev/null 2>&1 || true
  exit 1
}

# Through checkout $1's own warm daemon: one unmeasured proof, then three measured ones, each printed as its
# wall time and the listed phases' wall times (and shares of the proof); the daemon is stopped before and after.
warm() {
  local phases="${warm_phases:-main_commit|composition}"
  "$1/scripts/jstark" daemon stop >/dev/null 2>&1 || true
  "$1/scripts/jstark" "${prove[@]}" >"$tmp/out" 2>&1 || failed "$1"
  for _ in 1 2 3; do
    "$1/scripts/jstark" "${prove[@]}" >"$tmp/out" 2>&1 || failed "$1"
    echo "   $(grep -o 'proved in [0-9.]* s' "$tmp/out");$(awk -v phases="^($phases)\$" \
      '/^  [a-z_]+ +[0-9]/ && $1 ~ phases && !seen[$1]++ {printf " %s %s s (%s)", $1, $2, $3}' "$tmp/out")$(
      awk -v ops="^(${warm_operations:-})\$" '/^ +[a-z_]+ +[0-9]+ +[0-9.]+ +[0-9.]+%/ && $1 ~ ops && !seen[$1]++ {
        printf " %s %s s", $1, $3}' "$tmp/out")"
  done
  "$1/scripts/jstark" daemon stop >/dev/null 2>&1 || true
}
