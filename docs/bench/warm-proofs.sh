# Sourced by the scripts that time warm proofs of two checkouts side by side (merkle-gather.sh,
# constraint-fusion.sh, lde-columns.sh, composition-blocks.sh, narrow-second-thread.sh, deep-trace-sum.sh,
# compiled-programs.sh, retained-blocks.sh). They set: tmp (a scratch directory), prove (the jstark
# arguments) and optionally warm_phases (an awk pattern of the timing report's phase names to print, default main_commit|composition) and
# warm_operations (an awk pattern of its sub-operations' names, e.g. lde|merkle, the first of each name; default none).
# It also gives jars (lde-threads.sh sources it for that alone): the classpath of checkout $1's jstark-math and jstark-instrument jars, for the LDE kernel runs
# (docs/bench/LdeThreads.java); and narrow_jmh (narrow-second-thread.sh, deep-trace-sum.sh): the narrow tables' JMH
# single shots of two checkouts side by side.

jars() { echo "$(ls "$1"/jstark-math/target/jstark-math-*.jar | grep -v sources | head -1):$(ls "$1"/jstark-instrument/target/jstark-instrument-*.jar | grep -v sources | head -1)"; }

# Prints the last command's output, stops checkout $1's daemon and exits.
failed() {
  cat "$tmp/out"
  "$1/scripts/jstark" daemon stop >/dev/null 2>&1 || true
  exit 1
}

# Through checkout $1's own warm daemon: one unmeasured proof, then three measured ones, each printed as its
# wall time (the prove span's, then the whole command's: the client, the plan and the proof) and the listed phases'
# wall times (and shares of the proof); the daemon is stopped before and after.
warm() {
  local phases="${warm_phases:-main_commit|composition}" start
  "$1/scripts/jstark" daemon stop >/dev/null 2>&1 || true
  "$1/scripts/jstark" "${prove[@]}" >"$tmp/out" 2>&1 || failed "$1"
  for _ in 1 2 3; do
    start=$(date +%s%N)
    "$1/scripts/jstark" "${prove[@]}" >"$tmp/out" 2>&1 || failed "$1"
    echo "   $(grep -o 'proved in [0-9.]* s' "$tmp/out") (command $((($(date +%s%N) - start) / 1000000)) ms);$(awk -v phases="^($phases)\$" \
      '/^  [a-z_]+ +[0-9]/ && $1 ~ phases && !seen[$1]++ {printf " %s %s s (%s)", $1, $2, $3}' "$tmp/out")$(
      awk -v ops="^(${warm_operations:-})\$" '/^ +[a-z_]+ +[0-9]+ +[0-9.]+ +[0-9.]+%/ && $1 ~ ops && !seen[$1]++ {
        printf " %s %s s", $1, $3}' "$tmp/out")"
  done
  "$1/scripts/jstark" daemon stop >/dev/null 2>&1 || true
}

# One JMH run of $2 with threads=$3 in checkout $1; appends each measured shot's ms to $tmp/shots-<$4>-<threads>-<benchmark>.
jmh() {
  "$JAVA_HOME/bin/java" -jar "$1/jstark-bench/target/benchmarks.jar" "$2" -f 1 -wi 3 -i 10 -p threads="$3" \
    -p hash=blake3 >"$tmp/jmh" 2>&1 || { tail -5 "$tmp/jmh"; return 1; }
  awk -v out="$tmp/shots-$4-$3" '/^# Benchmark: / {b = $3; sub(/.*\./, "", b)}
    /^Iteration +[0-9]+:/ {print $3 >> (out "-" b)}' "$tmp/jmh"
  grep -E "^(Fibonacci|Mix)ProveBenchmark" "$tmp/jmh"
}

median() { sort -g "$1" | awk '{v[NR] = $1} END {print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }

# The narrow tables' JMH single shots, checkout $1 (base) against checkout $2 (this) in the order base, this, this,
# base: FibonacciProveBenchmark on one and two threads and MixProveBenchmark on one, 10 measured shots per run, then
# the medians of the 20 a side.
narrow_jmh() {
  local threads pattern side dir shots name
  for threads in 1 2; do
    pattern='FibonacciProveBenchmark.proveFibonacci|MixProveBenchmark.proveMix'
    [ "$threads" = 2 ] && pattern='FibonacciProveBenchmark.proveFibonacci'
    for side in base this this base; do
      dir=$([ "$side" = base ] && echo "$1" || echo "$2")
      echo "-- $side: java -jar jstark-bench/target/benchmarks.jar '$pattern' -f 1 -wi 3 -i 10 -p threads=$threads -p hash=blake3, load $(cut -d' ' -f1-3 /proc/loadavg)"
      jmh "$dir" "$pattern" "$threads" "$side"
    done
    for shots in "$tmp"/shots-base-"$threads"-*; do
      name="${shots##*-}"
      echo "   $name, threads=$threads: median of $(wc -l <"$shots") a side, base $(median "$shots") ms," \
        "this $(median "$tmp/shots-this-$threads-$name") ms"
    done
  done
}
