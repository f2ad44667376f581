#!/usr/bin/env bash
# Builds the C reference of the durable path (Benchmarks/Reference: ref_daemon and its load,
# ref_load) with the system's C compiler into DIRECTORY (default .build/reference), for the
# daemon benchmark and scripts/account.py. Needs a C compiler, libsqlite3-dev and libsodium-dev
# (scripts/bench.sh installs them).
#   scripts/build-reference.sh [DIRECTORY]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.build/reference}"
mkdir -p "$out"
cc="${CC:-cc}"
"$cc" -O2 -Wall -Werror -o "$out/ref_daemon" Benchmarks/Reference/ref_daemon.c -lsqlite3 -lsodium
"$cc" -O2 -Wall -Werror -o "$out/ref_load" Benchmarks/Reference/ref_load.c
echo "$out"
