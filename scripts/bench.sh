#!/usr/bin/env bash
# Runs the benchmarks in release mode (the first build takes several minutes).
#   scripts/bench.sh                 the core (Store, effects, scopes): about a minute
#   scripts/bench.sh --quick         a smoke run of the core
#   scripts/bench.sh log [--quick]   the action log against plain SQLite: about 20 seconds
#   scripts/bench.sh window          a window's redraw of a 1,000-card board and a 10,000-message
#                                    channel (goal: under 5 ms a change)
#   scripts/bench.sh daemon [--quick] concordd against Redis (appendfsync always) and the C
#                                    reference daemon of Benchmarks/Reference, alone and sending
#                                    every connection an update per commit: about 3 minutes
#   scripts/bench.sh daemon --against-revision REV [--rounds N] [--quick]
#                                    this build's concordd against REV's, alternating in one run
#                                    (REV built in .build-against/): about 3 minutes for 5 rounds
#   scripts/bench.sh remote [--quick] [--rounds N]
#                                    concordd through OpenSSH (a real sshd on loopback) beside
#                                    its local socket, 1 and 16 windows: about 2 minutes
#   scripts/bench.sh inspect [--quick] `concord inspect` on a 1,000,000-entry log with a snapshot every
#                                    1,000: open, jump to a seq, an entry's change (goal: each
#                                    under 200 ms): about 3 minutes
#   scripts/bench.sh account [--seconds S] [--clients 1,16]
#                                    where each µs of one durable action's CPU goes (perf, per
#                                    thread), concordd beside the C reference daemon: about 2 minutes
#   scripts/bench.sh instructions [fan-out|action|workspace|chat|presence] [--against OTHER]
#                                    instructions per action, per Workspace card edit, message and
#                                    window visit, and per window of a fan-out, counted by callgrind
#                                    (repeatable on a noisy machine): about 5 minutes
#
# Each run's output is kept in results/bench-MEASURE/, named by date and commit, and
# results/README.md lists the latest of each (scripts/record.sh; CONCORD_RESULTS=off keeps none).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/system-packages.sh
concord_install_system_packages

if [[ "${1:-}" == "daemon" && "${2:-}" == "--against-revision" ]]; then
  # This build's concordd against another revision's, alternating in one run.
  revision="${3:?--against-revision takes a revision, such as HEAD~1}"
  shift 3
  commit=$(git rev-parse --short "$revision")
  worktree=".build-against/$commit"
  [[ -d "$worktree" ]] || git worktree add --detach "$worktree" "$commit" >/dev/null
  (cd "$worktree" && swift build -c release --product concordd)
  swift build -c release --product concordd
  swift build -c release --product concord-daemon-bench
  exec scripts/record.sh bench-daemon-against .build/release/concord-daemon-bench compare "$PWD/$worktree/.build/release/concordd" "$@"
fi
if [[ "${1:-}" == "daemon" ]]; then
  shift
  # The anchors: Redis from Debian, and a C compiler for the reference daemon.
  concord_install_system_packages redis-server redis-tools gcc
  swift build -c release --product concordd
  swift build -c release --product concord-daemon-bench
  exec scripts/record.sh bench-daemon .build/release/concord-daemon-bench "$@"
fi
if [[ "${1:-}" == "inspect" ]]; then
  shift
  swift build -c release --product concord-daemon-bench
  exec scripts/record.sh bench-inspect .build/release/concord-daemon-bench inspect "$@"
fi
if [[ "${1:-}" == "account" ]]; then
  shift
  # perf samples the daemons; a C compiler builds the reference daemon.
  concord_install_system_packages linux-perf gcc python3
  swift build -c release --product concordd
  exec scripts/record.sh bench-account python3 scripts/account.py "$@"
fi
if [[ "${1:-}" == "instructions" ]]; then
  shift
  concord_install_system_packages valgrind gcc python3
  swift build -c release --product concordd
  exec scripts/record.sh bench-instructions python3 scripts/instructions.py "$@"
fi
if [[ "${1:-}" == "remote" ]]; then
  # A real sshd on loopback, started and ended by the benchmark.
  concord_install_system_packages openssh-server openssh-client
  swift build -c release --product concordd
  swift build -c release --product concord
  swift build -c release --product concord-daemon-bench
  exec scripts/record.sh bench-remote .build/release/concord-daemon-bench "$@"
fi
if [[ "${1:-}" == "window" ]]; then
  shift
  swift build -c release --product concord-window-bench
  exec scripts/record.sh bench-window .build/release/concord-window-bench "$@"
fi
if [[ "${1:-}" == "log" ]]; then
  shift
  swift build -c release --product concord-log-bench
  exec scripts/record.sh bench-log .build/release/concord-log-bench "$@"
fi
swift build -c release --product concord-bench
exec scripts/record.sh bench-core .build/release/concord-bench "$@"
