#!/usr/bin/env bash
# Formats every Java source the way the build checks it (Spotless with palantir-java-format, bound to verify).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/jdk.sh
# jstark-bom has no parent, so it has no formatter to run
jstark_mvn -B -ntp -q spotless:apply -pl '!jstark-bom' "$@"
