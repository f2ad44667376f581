#!/usr/bin/env bash
# The main job: starts concordd and opens four windows on it in tmux — the counter, the list of
# notes, one note, and who is attached — each a live `concord attach` you can type into (`help`
# lists the commands; `q` closes a window; Ctrl-b d detaches from tmux).
#   scripts/demo.sh          the multi-window demo (its home is .build/demo-home)
#   scripts/demo.sh stop     stops the demo's daemon
#   scripts/demo.sh --core   the core alone: a composed Store in this terminal, no daemon
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/system-packages.sh
concord_install_system_packages

if [[ "${1:-}" == "--core" ]]; then
  shift
  swift build --product concord-example
  exec .build/debug/concord-example "$@"
fi

swift build --product concordd
swift build --product concord
bin=$(swift build --show-bin-path)
export CONCORD_HOME="${CONCORD_HOME:-$PWD/.build/demo-home}"
mkdir -p "$CONCORD_HOME" && chmod 700 "$CONCORD_HOME"

if [[ "${1:-}" == "stop" ]]; then
  exec "$bin/concord" daemon stop
fi

"$bin/concord" daemon start
# A first note, so that the note:1 window has something to show.
"$bin/concord" state note:1 >/dev/null 2>&1 \
  || "$bin/concord" send notes 'add "type: edit buy oat milk, or toggle"' >/dev/null

session=concord-demo
tmux kill-session -t "$session" 2>/dev/null || true
tmux new-session -d -s "$session" -x 160 -y 40 -e "CONCORD_HOME=$CONCORD_HOME" "$bin/concord attach counter"
tmux split-window -h -t "$session" -e "CONCORD_HOME=$CONCORD_HOME" "$bin/concord attach notes"
tmux split-window -v -t "$session:0.0" -e "CONCORD_HOME=$CONCORD_HOME" "$bin/concord attach note:1"
tmux split-window -v -t "$session:0.2" -e "CONCORD_HOME=$CONCORD_HOME" "$bin/concord attach presence"
tmux select-layout -t "$session" tiled >/dev/null
tmux set-option -t "$session" status-right " Ctrl-b d: detach · scripts/demo.sh stop " >/dev/null

if [[ -t 0 && -t 1 ]]; then
  tmux attach -t "$session"
  echo "The daemon is still running (CONCORD_HOME=$CONCORD_HOME): scripts/demo.sh stop stops it."
else
  echo "The demo runs in tmux session '$session' (no terminal here to show it): tmux attach -t $session"
fi
