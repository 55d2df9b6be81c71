#!/usr/bin/env bash
# Runs the whole test suite (all modules) with a JDK 25 found on its own.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/jdk.sh
jstark_mvn -B -ntp install "$@"
