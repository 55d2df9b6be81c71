#!/usr/bin/env bash
# The main job: builds jstark, proves the 'vm' example (CPU, memory and range-check tables tied by
# LogUp buses), prints the timing report, verifies the proof and shows its shape.
set -euo pipefail
cd "$(dirname "$0")/.."
exec ./scripts/jstark demo "$@"
