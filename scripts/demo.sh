#!/usr/bin/env bash
# The main job: builds and runs the example app, a counter and a to-do list composed into one
# Concord Store, in this terminal. Type `help` for the commands, `quit` (or Ctrl-D) to leave.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/system-packages.sh
concord_install_system_packages

swift build --product concord-example
exec .build/debug/concord-example "$@"
