#!/usr/bin/env bash
# Start-up of `jstark verify` in a JVM of its own (no daemon, no AOT cache, C1 only as scripts/jstark runs verify): the
# class-path jar scripts/jstark runs, against the same modules on the module path, alternating, RUNS times each.
# Run from anywhere after the CLI is installed (./scripts/test.sh, or install -DskipTests); prints the medians.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
. "$root/scripts/jdk.sh"
runs=${RUNS:-11}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && jstark_mvn -q -B -ntp -o dependency:copy-dependencies -pl jstark-cli -DincludeScope=runtime \
  -DoutputDirectory="$work/modules") >/dev/null
for module in "$root"/jstark-cli/target/jstark-cli-*.jar; do
  case "$module" in *-sources.jar) ;; *) cp "$module" "$work/modules/" ;; esac
done
jar="$root/jstark-cli/target/jstark.jar"
opts=(--add-modules jdk.incubator.vector -XX:+UseParallelGC -XX:TieredStopAtLevel=1)
java "${opts[@]}" -jar "$jar" prove --example fib --rows 2^12 --no-report -o "$work/p.bin" >/dev/null 2>&1
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq 1 "$runs"); do
  /usr/bin/time -f "class-path %e %U %S" java "${opts[@]}" --enable-native-access=ALL-UNNAMED -jar "$jar" \
    verify "$work/p.bin" >/dev/null 2>>"$work/times"
  /usr/bin/time -f "module-path %e %U %S" java "${opts[@]}" --enable-native-access=io.jstark.instrument,io.jstark.math \
    -p "$work/modules" -m io.jstark.cli/io.jstark.cli.Main verify "$work/p.bin" >/dev/null 2>>"$work/times"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$work/times" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    p = line.split()
    if p and p[0] in ("class-path", "module-path"):
        rows.setdefault(p[0], []).append((float(p[1]), float(p[2]) + float(p[3])))
for k, v in rows.items():
    print(f"{k:12s} wall median {statistics.median(a for a, _ in v):.2f} s  cpu (user+sys) median "
          f"{statistics.median(b for _, b in v):.2f} s  ({len(v)} runs; wall: {' '.join(f'{a:.2f}' for a, _ in v)})")
PY
