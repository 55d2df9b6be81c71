# Sourced by the other scripts: finds a JDK 25 or newer and exports JAVA_HOME.
# Order: $JAVA_HOME, then /usr/lib/jvm/*, then the java on PATH.
jstark_java_major() {
  # a JDK's release file names its version: read it rather than start a JVM (that costs every scripts/jstark run
  # a tenth of a second of CPU); the JVM's own answer only where there is no such file
  if [ -f "$1/release" ]; then
    sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" | head -n 1
  else
    "$1/bin/java" -XshowSettings:properties -version 2>&1 \
      | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p' | head -n 1
  fi
}
jstark_find_jdk() {
  local candidate major
  for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/* "$(dirname "$(dirname "$(readlink -f "$(command -v java 2>/dev/null || echo /nonexistent)")")")"; do
    [ -n "$candidate" ] && [ -x "$candidate/bin/java" ] && [ -x "$candidate/bin/javac" ] || continue
    major=$(jstark_java_major "$candidate")
    if [ -n "$major" ] && [ "$major" -ge 25 ]; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}
if ! JAVA_HOME=$(jstark_find_jdk); then
  echo "jstark: no JDK 25 or newer found (looked at \$JAVA_HOME, /usr/lib/jvm/* and the java on PATH)." >&2
  echo "jstark: install a JDK 25 (for example Temurin 25) and set JAVA_HOME to it." >&2
  exit 1
fi
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"
# Maven: the one on PATH, else the repository's wrapper (./mvnw fetches Maven from Maven Central once).
jstark_mvn() {
  if command -v mvn >/dev/null 2>&1; then
    mvn "$@"
  else
    "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/mvnw" "$@"
  fi
}
# Maven itself runs on this JDK; keep its own start-up warnings out of the output.
export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED"
