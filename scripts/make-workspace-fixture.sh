#!/usr/bin/env bash
# Writes Tests/ConcordReplayTests/Fixtures/workspace-vN/ (N: Workspace.version of this checkout):
# a Workspace log made by the binaries
# built from this checkout, holding every kind of Workspace action (every board, column, card
# and chat command, presence, a reminder that fell due, a restart's `booted`), with its key.
# A later version of Workspace must boot it, replay it, verify it and export it unchanged
# (WorkspaceFixtureTests), and reach the state this build printed (state.json). Run it only to
# make the fixture of a version that is about to change, on that version's commit: the
# workspace-v1 fixture was made at 4098e44 (the script as it stood there, with version 1's JSON
# such as `{"setDue":{"_0":…}}`), e.g. in `git worktree add /tmp/v1 4098e44`.
#
#   scripts/make-workspace-fixture.sh            # builds, then writes the fixture
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product concordd
swift build --product concord
bin=.build/debug
version=$(sed -n 's/.*public static let version = \([0-9]*\).*/\1/p' Sources/Workspace/Workspace.swift)
out=Tests/ConcordReplayTests/Fixtures/workspace-v$version
home=$(mktemp -d /tmp/concord-fixture-XXXXXX)
chmod 700 "$home"
trap 'kill "$daemon" 2>/dev/null || true; rm -rf "$home"' EXIT
export CONCORD_HOME=$home CONCORD_APP=workspace

start() {
  "$bin/concordd" --home "$home" --app workspace --log-level warning >> "$home/daemon.out" 2>&1 &
  daemon=$!
  for _ in $(seq 1 100); do [[ -S "$home/concordd.sock" ]] && return; sleep 0.1; done
  echo "the daemon did not start" >&2; exit 1
}
stop() { kill -TERM "$daemon"; wait "$daemon" || true; }
send() { "$bin/concord" send "$@" > /dev/null; }

start
# The board starts with todo, doing (limit 3) and done.
send board 'column add review'
send board 'column add later 2'
send board 'column rename review in-review'
send board 'column move in-review 1'
send board 'invite bob'
send board 'add "Fix login" to todo'
send board 'add "Write release notes"'
send board 'add "Old idea"'
send board 'move 1 doing'
send board 'assign 1 bob'
send board 'unassign 1'
send board 'due 1 in 4 days'
send board 'label 1 urgent'
send board 'unlabel 1 urgent'
send board 'edit 1 Fix the login page'
send board 'describe 1 Users see a blank page'
send board 'archive 3'
send board 'restore 3'
send board 'limit todo 5'
send board 'undo'
send board 'redo'
send column:todo 'add "From the column"'
send column:todo 'move 2 1'
send column:todo 'limit none'
send column:todo 'rename backlog'
send card:2 'title Write the release notes'
send card:2 'describe For 1.0'
send card:2 'move doing'
send card:2 'assign bob'
send card:2 'unassign'
send card:2 'label docs'
send card:2 'unlabel docs'
send card:2 'due in 5 days'
send card:2 'archive'
send card:2 'restore'
send board 'move 3 done'
send board 'column remove in-review'
send board 'column remove later'
send chat:general 'the build is green @bob see #1'
send chat:general '/edit 1 the build is green again'
send chat:general 'a second message'
send chat:general '/delete 2'
send chat:general '/channel random'
# A window opens and closes: presence.
"$bin/concord" attach board --json < /dev/null > /dev/null
# A reminder that falls due two seconds from now (the due date in the action's own encoding).
due=$(python3 -c 'import datetime as d; print((d.datetime.now(d.timezone.utc) + d.timedelta(seconds=2)).strftime("%Y-%m-%dT%H:%M:%S.000Z"))')
send card:1 "{\"setDue\":{\"due\":\"$due\"}}"
sleep 4
stop
# A restart: `booted` again, reminders set again from the state.
start
sleep 1
stop

mkdir -p "$out"
rm -f "$out"/*
cp "$home/log.sqlite" "$home/log.sqlite.pub" "$home/log.sqlite.checkpoint" "$home/key" "$out/"
for suffix in -wal -shm; do [[ -e "$home/log.sqlite$suffix" ]] && { echo "the log kept a $suffix file" >&2; exit 1; }; done
# The whole state the log replays to, as this build prints it: a later build must reach the
# same state from the same entries.
"$bin/concord" state --home "$home" > "$out/state.json" 2>/dev/null
"$bin/concord" --version > "$out/made-by.txt" 2>/dev/null || true
git rev-parse --short HEAD >> "$out/made-by.txt"
echo "wrote $out: $(sqlite3 "$out/log.sqlite" 'SELECT count(*) FROM entries') entries"
