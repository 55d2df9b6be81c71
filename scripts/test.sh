#!/usr/bin/env bash
# Runs the whole test suite (all modules) with a JDK 25 found on its own.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/jdk.sh
exec mvn -B -ntp install "$@"
