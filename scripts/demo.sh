#!/usr/bin/env bash
# The main job: starts concordd hosting Workspace and opens four windows on it in tmux — the
# board, one card, the general chat and the activity feed — each a live `concord attach` you can
# type into (`help` lists the commands; `q` and Enter closes a window; Ctrl-b and an arrow moves between
# windows; Ctrl-b d leaves tmux, the daemon keeps running).
#   scripts/demo.sh          the multi-window demo (its home is .build/demo-home)
#   scripts/demo.sh stop     stops the demo's daemon
#   scripts/demo.sh --core   the core alone: a composed Store in this terminal, no daemon
# CONCORD_BIN=DIR uses the binaries in DIR instead of building them; CONCORD_DEMO_TMUX=NAME runs
# the demo on its own tmux server (tmux -L NAME). The end-to-end test of the demo uses both.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/system-packages.sh
concord_install_system_packages

if [[ "${1:-}" == "--core" ]]; then
  shift
  swift build --product concord-example
  exec .build/debug/concord-example "$@"
fi

if [[ -n "${CONCORD_BIN:-}" ]]; then
  bin=$CONCORD_BIN
else
  swift build --product concordd
  swift build --product concord
  bin=$(swift build --show-bin-path)
fi
tmux() { command tmux ${CONCORD_DEMO_TMUX:+-L "$CONCORD_DEMO_TMUX"} "$@"; }
export CONCORD_HOME="${CONCORD_HOME:-$PWD/.build/demo-home}"
export CONCORD_APP=workspace
mkdir -p "$CONCORD_HOME" && chmod 700 "$CONCORD_HOME"

if [[ "${1:-}" == "stop" ]]; then
  exec "$bin/concord" daemon stop
fi

"$bin/concord" daemon start
# A first card and a first message, so that every window has something to show; only once.
if ! "$bin/concord" state card:1 >/dev/null 2>&1; then
  "$bin/concord" send board 'add "Try Concord: type in any window" to doing' >/dev/null
  "$bin/concord" send chat:general 'welcome! type here to chat; mention @someone, link a card with #1' >/dev/null
fi

session=concord-demo
# The windows are laid out in a session of their own, which takes the demo's name once the old
# one (from a run before) is gone: killing the old session first would leave the tmux server
# without one for a moment, and a server with no session exits, under the next command.
building="$session-$$"
attach() { echo "env CONCORD_HOME='$CONCORD_HOME' CONCORD_APP=workspace '$bin/concord' attach $1"; }
tmux new-session -d -s "$building" -x "${CONCORD_DEMO_COLUMNS:-200}" -y "${CONCORD_DEMO_ROWS:-50}" "$(attach board)"
tmux split-window -v -t "$building:0.0" -l 40% "$(attach card:1)"
tmux split-window -h -t "$building:0.1" -l 66% "$(attach chat:general)"
tmux split-window -h -t "$building:0.2" -l 50% "$(attach activity)"
# Card 1 last, then the board: tmux moves Ctrl-b ↓ to the most recently used pane below, so
# from the board it lands on the card.
tmux select-pane -t "$building:0.1"
tmux select-pane -t "$building:0.0"
tmux set-option -t "$building" status-style "bg=blue,fg=white" >/dev/null
tmux set-option -t "$building" status-left-length 120 >/dev/null
tmux set-option -t "$building" status-left \
  " Concord · type into a window: help lists its words · Ctrl-b + arrow: next window · q: close one · Ctrl-b d: leave " >/dev/null
tmux set-option -t "$building" status-right "" >/dev/null
# "=NAME": that session exactly, not the first whose name begins with NAME (as the new one's does).
tmux kill-session -t "=$session" 2>/dev/null || true
tmux rename-session -t "=$building" "$session"

if [[ -t 0 && -t 1 ]]; then
  tmux attach -t "$session"
  echo "The daemon is still running (CONCORD_HOME=$CONCORD_HOME): scripts/demo.sh stop stops it."
else
  echo "The demo runs in tmux session '$session' (no terminal here to show it): tmux ${CONCORD_DEMO_TMUX:+-L $CONCORD_DEMO_TMUX }attach -t $session"
fi
