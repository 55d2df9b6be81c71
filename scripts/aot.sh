# Sourced by scripts/jstark (after $jar and the java_opts array are set; the training runs with those options):
# the JVM's AOT cache for this jar.
# Opt-in (JSTARK_AOT=on): measured, it takes 10-20% of the CPU off verify and nothing measurable off a proof, for a
# training of about 20 s on first use. jstark_aot_options prints the options that use it (one a line), recording it
# first when this jar has none: one training run (jstark aot-training: prove, verify, keygen... over the examples)
# with -XX:AOTCacheOutput.
# The cache is named by the jar's size and modification time, so a rebuilt jar gets a new one (the old ones
# are removed); the JVM also checks the jar itself and ignores a cache that does not match it. Its messages
# about the cache are switched off: a missing or refused cache only means a slower start, never another
# result. A failed training is not retried for the same jar (its log lies next to the cache).
jstark_aot_options() {
  if [ "${JSTARK_AOT:-off}" != on ]; then
    return 0
  fi
  local dir="$root/jstark-cli/target/aot"
  local cache="$dir/jstark-$(stat -c %s-%Y "$jar").aot"
  if [ ! -f "$cache" ] && [ ! -f "$cache.failed" ]; then
    jstark_aot_train "$dir" "$cache" >&2 || true
  fi
  # one option a line (paths may hold spaces); the JVM kept quiet about a cache it cannot use (stale, other
  # flags, another JDK): the run is the same without it
  if [ -f "$cache" ]; then
    echo "-XX:AOTCache=$cache"
  fi
  echo "-Xlog:aot*=off"
  echo "-Xlog:cds*=off"
}

jstark_aot_train() {
  local dir="$1" cache="$2" work
  mkdir -p "$dir" || return 1
  find "$dir" -maxdepth 1 -name 'jstark-*.aot*' ! -name "$(basename "$cache")*" -delete 2>/dev/null || true
  echo "jstark: recording the JVM's start-up cache for this build (once per build, about 20 s; because JSTARK_AOT=on)..."
  work="$(mktemp -d "${TMPDIR:-/tmp}/jstark-aot.XXXXXX")" || return 1
  # the training's own commands write in $work; the cache appears under its final name only when complete
  if "$JAVA_HOME/bin/java" "${java_opts[@]}" -XX:AOTCacheOutput="$work/jstark.aot" -Xlog:aot*=off -Xlog:cds*=off \
      -jar "$jar" aot-training "$work/run" >"$dir/training.log" 2>&1 && [ -f "$work/jstark.aot" ]; then
    mv -f "$work/jstark.aot" "$cache"
  else
    touch "$cache.failed"
    echo "jstark: recording the start-up cache failed (see $dir/training.log); running without it"
  fi
  rm -rf "$work"
}
