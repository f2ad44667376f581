#!/usr/bin/env bash
# The man pages of concord and concordd, one a command (concord.send.1, …), generated from the
# commands' own definitions by swift-argument-parser's generate-manual into docs/man/.
#   scripts/man.sh                    writes docs/man/ anew (commit it with the change that
#                                     changed a command: ManPagesTests fails while a page is stale)
#   scripts/man.sh install [PREFIX]   also copies them to PREFIX/share/man/man1 (default
#                                     /usr/local), where `man concord.send` finds them
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/system-packages.sh
concord_install_system_packages
swift build --product concord
swift build --product concordd
swift build --product generate-manual
bin="$(swift build --show-bin-path)"
day="$(date -u +%F)"
for tool in concord concordd; do
  rm -rf "docs/man/$tool"
  mkdir -p "docs/man/$tool"
  "$bin/generate-manual" "$bin/$tool" --multi-page --date "$day" --output-directory "docs/man/$tool"
done
echo "docs/man: $(ls docs/man/*/*.1 | wc -l) pages"
if [[ "${1:-}" == "install" ]]; then
  target="${2:-/usr/local}/share/man/man1"
  mkdir -p "$target"
  install -m 0644 docs/man/*/*.1 "$target/"
  echo "installed in $target: try \`man concord\` or \`man concord.send\`"
fi
