#!/usr/bin/env bash
# Runs the core benchmarks in release mode (the first build takes several minutes).
#   scripts/bench.sh            full run, about a minute
#   scripts/bench.sh --quick    a smoke run
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/system-packages.sh
concord_install_system_packages

swift build -c release --product concord-bench
exec .build/release/concord-bench "$@"
