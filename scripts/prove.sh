#!/usr/bin/env bash
# The long suites that prove Concord's guarantees, each bounded in time, each ending with a
# summary table (exit status 1 when a guarantee did not hold). They run the release binaries.
#   scripts/prove.sh crash [--rounds 50]     kill -9 under 16 clients and 3 windows: ~5 minutes
#   scripts/prove.sh fault                   twelve injected faults: ~1 minute (some need root)
#   scripts/prove.sh soak [--minutes 10]     20 clients and 50 windows for 10 minutes
#   scripts/prove.sh hostile                 hostile peers beside a good window: ~1 minute
#   scripts/prove.sh fuzz [SECONDS]          libFuzzer on the wire, the diffs and the words
#   scripts/prove.sh all                     every suite above, one after another
#
# Each suite's output is kept in results/prove-SUITE/, named by date and commit, and
# results/README.md lists the latest of each (scripts/record.sh; CONCORD_RESULTS=off keeps none).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/system-packages.sh
concord_install_system_packages

suite="${1:-}"
if [[ -z "$suite" || "$suite" == "-h" || "$suite" == "--help" ]]; then
  sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
shift
case "$suite" in
  crash | fault | soak | hostile | fuzz | all) ;;
  *) echo "prove.sh: no suite '$suite'; the suites are crash, fault, soak, hostile, fuzz and all" >&2; exit 2 ;;
esac
if [[ "$suite" == "fuzz" ]]; then
  exec scripts/fuzz.sh "$@"
fi
# The fault suite compiles a small clock library with the C compiler.
concord_install_system_packages gcc
swift build -c release --product concordd
swift build -c release --product concord
swift build -c release --product concord-prove
if [[ "$suite" == "all" ]]; then
  status=0
  for each in crash fault soak hostile; do
    scripts/record.sh "prove-$each" stdbuf -oL .build/release/concord-prove "$each" || status=1
  done
  scripts/fuzz.sh || status=1
  exit $status
fi
# Line-buffered: the progress shows as it happens, also when the output goes to a file.
exec scripts/record.sh "prove-$suite" stdbuf -oL .build/release/concord-prove "$suite" "$@"
