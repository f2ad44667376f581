#!/usr/bin/env bash
# The API documentation of the modules an app developer builds on, with DocC (each module's
# catalog is Sources/MODULE/MODULE.docc: its landing article and articles; the rest comes from
# the doc comments).
#   scripts/docs.sh           writes the documentation of every module, as one site, to
#                             .build/docs/ (static files: `python3 -m http.server -d .build/docs`,
#                             then open http://localhost:8000/documentation/concord)
#   scripts/docs.sh --check   as CI runs it: fails on any DocC warning (a link to nothing, a
#                             parameter left out) and on any public declaration without a doc
#                             comment, naming each as FILE:LINE
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/system-packages.sh
concord_install_system_packages python3

# The modules an app developer uses: the core and its test support, what an app is, the daemon
# and the client, and the command line of any app (with the daemon's own commands).
modules=(Concord ConcordTesting ConcordApp ConcordServer ConcordClient ConcordCommandLine ConcordDaemonCommand)
check=false
[[ "${1:-}" == "--check" ]] && check=true

targets=()
for module in "${modules[@]}"; do
  # Each module opens on a landing article of its own, not on a bare list of symbols.
  landing="Sources/$module/$module.docc/$module.md"
  title='# ``'"$module"'``'
  if [[ ! -f "$landing" || "$(head -1 "$landing")" != "$title" ]]; then
    echo "docs: $module has no landing article: $landing must start with the line $title" >&2
    exit 1
  fi
  targets+=(--target "$module")
done
strict=()
$check && strict=(--warnings-as-errors)
output=.build/docs
rm -rf "$output"
mkdir -p "$output"
swift package --disable-sandbox --allow-writing-to-directory "$output" generate-documentation \
  "${targets[@]}" --enable-experimental-combined-documentation \
  --transform-for-static-hosting --output-path "$output" "${strict[@]}"

# DocC itself does not ask that every declaration be documented: the symbol graphs it read say.
# The plugin files them under the package's identity: its directory's name, in lower case ("main"
# here, the clone's name in CI).
graphs="$(swift build --show-bin-path)/../extracted-symbols/$(basename "$PWD" | tr '[:upper:]' '[:lower:]')"
python3 scripts/doc_coverage.py --graphs "$graphs" "${modules[@]}"
echo "API documentation of ${#modules[@]} modules in $output: open $output/documentation/concord/index.html through a web server"
