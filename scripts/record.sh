#!/usr/bin/env bash
# Runs a measure and keeps what it printed as a results file named by date and commit, so that
# figures are written by the tools, never typed by hand:
#   results/MEASURE/YYYY-MM-DD-HHMMSS-COMMIT.txt   (COMMIT ends in + when the tree had changes)
# and writes results/README.md anew: the latest run of each measure, and how many more there are.
# The output still goes to the terminal; the measure's exit status is this script's.
#   scripts/record.sh MEASURE COMMAND [ARGUMENTS...]
# CONCORD_RESULTS names another folder (default results/ in the repository); CONCORD_RESULTS=off
# runs the command without keeping anything.
set -uo pipefail
repository="$(cd "$(dirname "$0")/.." && pwd)"
measure="${1:?record.sh MEASURE COMMAND [ARGUMENTS...]}"
shift
[[ $# -gt 0 ]] || { echo "record.sh: no command to run for $measure" >&2; exit 2; }
# A measure's --help is no result.
for argument in "$@"; do [[ "$argument" == "-h" || "$argument" == "--help" ]] && exec "$@"; done
if [[ "${CONCORD_RESULTS:-}" == "off" ]]; then exec "$@"; fi
results="${CONCORD_RESULTS:-$repository/results}"

commit="$(git -C "$repository" rev-parse --short=10 HEAD 2>/dev/null || echo unknown)"
[[ -z "$(git -C "$repository" status --porcelain --untracked-files=no 2>/dev/null)" ]] || commit="$commit+"
started="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
output="$(mktemp)"
trap 'rm -f "$output"' EXIT
"$@" 2>&1 | tee "$output"
status=${PIPESTATUS[0]}

mkdir -p "$results/$measure"
file="$results/$measure/$(date -u -d "$started" +%Y-%m-%d-%H%M%S)-$commit.txt"
{
  echo "measure: $measure"
  echo "started: $started"
  echo "commit: $commit"
  echo "command: $*"
  echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(uname -sr)"
  echo "exit status: $status"
  echo
  cat "$output"
} >"$file"

# The index: each measure's latest run, and the rest by count.
{
  echo "# Results"
  echo
  echo "Written by \`scripts/record.sh\` (which \`scripts/bench.sh\` and \`scripts/prove.sh\` run their"
  echo "measures through): one file a run, named by its date and commit (\`+\`: the tree had changes)."
  echo
  echo "| measure | latest run | runs |"
  echo "|---|---|---|"
  for folder in "$results"/*/; do
    name="$(basename "$folder")"
    latest="$(ls "$folder" | grep '\.txt$' | sort | tail -1)"
    [[ -n "$latest" ]] || continue
    echo "| $name | [$latest]($name/$latest) | $(ls "$folder" | grep -c '\.txt$') |"
  done
} >"$results/README.md"
echo "kept as ${file#"$repository/"}" >&2
exit "$status"
