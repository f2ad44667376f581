#!/usr/bin/env python3
"""app_schema_peer.py: an app's JSON checked against its published schema on real traffic, by a
client written from the schemas alone: Workspace against schema/workspace.schema.json, the sample
app against schema/sample-app.schema.json.

For each app it starts `concordd` on a fresh home and sends the documented JSON of every action,
each first checked against its scope's action schema: half through `concord send`, half as `send`
lines on a raw socket. Peers watch the scopes; each state they hold after a `snapshot` or an
`update` (applied with the wire peer's own diff model) must fit the scope's state schema. Then
`concord state` (the whole state and each scope), a restart, and the audit export: every entry's
action text must fit LoggedAction, and every kind of action must be among them. Actions the schema
refuses (a date as a number, `_0`) must be refused by the daemon too.

    python3 app_schema_peer.py --concordd .build/debug/concordd --concord .build/debug/concord

Validation is by the `jsonschema` package (Debian's python3-jsonschema), which shares no code with
Concord. Prints `PASS`/`FAIL` lines and `N passed, M failed`; exits 1 when any failed.
"""

import argparse
import datetime
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wire_contract_peer as wire  # noqa: E402

try:
    import jsonschema
except ImportError:
    # A python3 of its own on PATH (pyenv, a virtualenv) may lack the package Debian installed.
    if sys.executable != "/usr/bin/python3" and os.access("/usr/bin/python3", os.X_OK):
        os.execv("/usr/bin/python3", ["/usr/bin/python3", *sys.argv])
    print("FAIL setup: the Python package jsonschema is missing (Debian: apt-get install python3-jsonschema)")
    sys.exit(1)

SCHEMA_DIRECTORY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "schema")
SCHEMA = None  # the schema of the app being checked
VALIDATORS = {}


def use_schema(name):
    global SCHEMA
    with open(os.path.join(SCHEMA_DIRECTORY, name), encoding="utf-8") as f:
        SCHEMA = json.load(f)
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    VALIDATORS.clear()


def schema_version():
    """The app version the schema describes: the number its $id ends with, which its title must
    say too. Every entry the daemon writes carries the version of the app that wrote it."""
    version = int(SCHEMA["$id"].rsplit(":", 1)[1])
    wire.check(f"version {version}:" in SCHEMA["title"],
               f"the schema's $id says version {version}, its title: {SCHEMA['title']!r}")
    return version


def problems(value, definition):
    """Why `value` does not fit `$defs/definition` of the app's schema (empty when it fits)."""
    if definition not in VALIDATORS:
        VALIDATORS[definition] = jsonschema.Draft202012Validator(dict(SCHEMA, **{"$ref": "#/$defs/" + definition}))
    found = [f"{definition}: {e.message} at /{'/'.join(map(str, e.absolute_path))}"
             for e in VALIDATORS[definition].iter_errors(value)]
    # A pattern says a timestamp's shape; the calendar says whether it is a day (2026-02-30 is not).
    for text in timestamps(value):
        try:
            datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            found.append(f"{definition}: {text!r} is no date")
    return found


def timestamps(value):
    """The strings under the members that hold dates."""
    out = []
    if isinstance(value, dict):
        for key, member in value.items():
            if isinstance(member, str) and key in ("at", "due", "createdAt", "updatedAt", "editedAt", "since", "date"):
                out.append(member)
            else:
                out.extend(timestamps(member))
    elif isinstance(value, list):
        for member in value:
            out.extend(timestamps(member))
    return out


def definition_of(scope, what):
    """The definition of a scope's `state` or `action`, from the schema's x-scopes."""
    scopes = {name.split(":")[0]: spec for name, spec in SCHEMA["x-scopes"].items()}
    ref = scopes[scope.split(":")[0]].get(what)
    return ref.rsplit("/", 1)[1] if ref else None


class WatchingPeer(wire.Peer):
    """A peer that checks each state it holds against its scope's schema as it changes."""

    def attach(self, scope, timeout=wire.READ_TIMEOUT):
        """Attaches, reading the updates of other scopes that come before the snapshot."""
        self.send({"type": "attach", "scope": scope})
        msg, _ = self.until(lambda m: m.get("type") in ("snapshot", "error") and m.get("scope", scope) == scope,
                            f"the snapshot of {scope}", timeout)
        wire.check(msg.get("type") == "snapshot", f"expected the snapshot of {scope}, got {wire.short(msg)}")
        return msg

    def recv(self, timeout=wire.READ_TIMEOUT):
        msg = super().recv(timeout)
        if isinstance(msg, dict) and msg.get("type") in ("snapshot", "update") and msg.get("scope") in self.states:
            scope = msg["scope"]
            self.checked = getattr(self, "checked", 0) + 1
            for p in problems(self.states[scope], definition_of(scope, "state")):
                self.violations.append(f"{self.name}: {msg['type']} of {scope}: {p}")
        return msg


def future(days, offset="Z"):
    moment = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=123456) + datetime.timedelta(days=days)
    text = moment.strftime("%Y-%m-%dT%H:%M:%S.%f")
    return text + "Z" if offset == "Z" else text + offset


# Workspace ---------------------------------------------------------------------------------

# The documented JSON of every action a window sends, in an order each one applies in.
ACTIONS = [
    ("board", {"addColumn": {"name": "review"}}),
    ("board", {"addColumn": {"name": "later", "limit": 2}}),
    ("board", {"renameColumn": {"name": "review", "to": "in-review"}}),
    ("board", {"moveColumn": {"name": "in-review", "position": 2}}),
    ("board", {"limitColumn": {"name": "later", "limit": 4}}),
    ("board", {"invite": {"user": "bob"}}),
    ("board", {"addCard": {"title": "Fix login", "column": "todo"}}),
    ("board", {"addCard": {"title": "日本語 café 😀 cafe\u0301 \"quoted\" \\ back"}}),
    ("board", {"addCard": {"title": "Old idea", "column": None}}),
    ("board", {"editCard": {"id": 1, "title": "Fix the login page", "description": "Users see a blank page"}}),
    ("board", {"moveCard": {"id": 1, "column": "doing", "position": 1}}),
    ("board", {"assign": {"id": 1, "user": "bob"}}),
    ("board", {"assign": {"id": 1}}),
    ("board", {"label": {"id": 1, "label": "urgent"}}),
    ("board", {"unlabel": {"id": 1, "label": "urgent"}}),
    ("board", {"setDue": {"id": 1, "due": future(30)}}),
    ("board", {"setDue": {"id": 1, "due": future(31, "+05:30")}}),
    ("board", {"archive": {"id": 3}}),
    ("board", {"restore": {"id": 3}}),
    ("board", {"undo": {}}),
    ("board", {"redo": {}}),
    ("board", {"removeColumn": {"name": "later"}}),
    ("column:todo", {"addCard": {"title": "From the column"}}),
    ("column:todo", {"moveCard": {"id": 4, "position": 1}}),
    ("column:todo", {"limit": {"to": 5}}),
    ("column:todo", {"limit": {}}),
    ("column:in-review", {"rename": {"to": "review"}}),
    ("card:2", {"edit": {"title": "Write the release notes"}}),
    ("card:2", {"edit": {"description": "For 1.0"}}),
    ("card:2", {"move": {"column": "review"}}),
    ("card:2", {"assign": {"user": "bob"}}),
    ("card:2", {"assign": {}}),
    ("card:2", {"label": {"name": "docs"}}),
    ("card:2", {"unlabel": {"name": "docs"}}),
    ("card:2", {"setDue": {"due": future(2)}}),
    ("card:2", {"setDue": {}}),
    ("card:2", {"archive": {}}),
    ("card:2", {"restore": {}}),
    ("chat:general", {"say": {"text": "the build is green @bob see #1."}}),
    ("chat:general", {"edit": {"message": 1, "text": "the build is green again"}}),
    ("chat:general", {"say": {"text": "a second message"}}),
    ("chat:general", {"delete": {"message": 2}}),
    ("chat:general", {"createChannel": {"name": "random"}}),
    # Due a moment ago: the daemon's reminder falls due and is raised (its own actions).
    ("card:1", {"setDue": {"due": future(-1 / 86400)}}),
]

# Actions the schema refuses, which the daemon must not take either.
REFUSED = [
    ("card:1", {"setDue": {"due": 817405200}}),
    ("card:1", {"setDue": {"due": "2026-02-30T10:00:00Z"}}),
    ("card:1", {"setDue": {"due": "tomorrow"}}),
    ("chat:general", {"say": {"_0": "hello"}}),
    ("board", {"addCard": {"title": "two actions"}, "undo": {}}),
    ("board", {"undo": {}, "redo": {}}),
]

# Text with a control character: the schema's TEXT rule says the daemon refuses it (and logs
# the refusal), though its shape fits.
CONTROL_TEXT = [
    ("board", {"addCard": {"title": "esc \u001b[31m red"}}),
    ("chat:general", {"say": {"text": "bell \u0007"}}),
    ("card:1", {"edit": {"title": "two\nlines"}}),
    ("board", {"label": {"id": 1, "label": "rtl\u202e"}}),
]

# Every kind the log holds (`board.join` is reduced inside `presence.attached`, never logged alone).
EVERY_KIND = {
    "board.addCard", "board.editCard", "board.moveCard", "board.assign", "board.label", "board.unlabel",
    "board.setDue", "board.archive", "board.restore", "board.addColumn", "board.renameColumn", "board.moveColumn",
    "board.limitColumn", "board.removeColumn", "board.invite", "board.undo", "board.redo", "board.dismissReminder",
    "chat.say", "chat.edit", "chat.delete", "chat.createChannel",
    "presence.attached", "presence.detached", "reminders.fellDue", "reminders.raise", "booted",
}


def kind(action):
    (outer, payload), = action.items()
    if outer in ("board", "chat"):
        payload = payload["action"]
    return f"{outer}.{next(iter(payload))}" if payload else outer


def send_all(ctx, watcher, sender, actions, refused, watched_prefix):
    """Sends each documented action (checked against the schema first), alternately through
    `concord send` and the raw `sender`, each of which must be applied; then each action the
    schema refuses, which the daemon must not take. A scope starting with `watched_prefix` is
    attached by the watcher before its first action."""
    cseq = 0
    for index, (scope, action) in enumerate(actions):
        found = problems(action, definition_of(scope, "action"))
        wire.check(not found, f"the documented action {action} for {scope} does not fit the schema: {found}")
        if scope.startswith(watched_prefix) and scope not in watcher.states:
            watcher.attach(scope)
        if index % 2 == 0:
            result = ctx.concord("send", "--home", ctx.home, scope, json.dumps(action))
            wire.check(result.returncode == 0, f"`concord send {scope} {json.dumps(action)}` exited "
                       f"{result.returncode}: {result.stderr.decode('utf-8', 'replace').strip()[:300]}")
        else:
            if scope not in sender.states:
                sender.attach(scope)
            cseq += 1
            sender.acked(scope, action, "schema-peer", cseq, f"{scope} {json.dumps(action)}")
    for scope, action in refused:
        wire.check(problems(action, definition_of(scope, "action")), f"the schema takes {action} for {scope}")
        if scope not in sender.states:
            sender.attach(scope)
        cseq += 1
        sender.send(wire.send_msg(scope, action, "schema-peer", cseq))
        answer, _ = sender.answer("schema-peer", cseq)
        wire.check(answer.get("type") != "ack", f"the daemon took {action} for {scope}, which the schema refuses")
    for scope, action in CONTROL_TEXT if refused is REFUSED else []:
        wire.check(not problems(action, definition_of(scope, "action")), f"the schema's shape refuses {action}")
        if scope not in sender.states:
            sender.attach(scope)
        cseq += 1
        sender.send(wire.send_msg(scope, action, "schema-peer", cseq))
        answer, _ = sender.answer("schema-peer", cseq)
        wire.check(answer.get("type") == "refused" and "control character" in answer.get("reason", ""),
                   f"the daemon did not refuse {action} for {scope}, text the schema's TEXT rule refuses: {answer}")


def workspace_traffic(ctx):
    use_schema("workspace.schema.json")
    os.environ["CONCORD_APP"] = "workspace"  # which app `concord` speaks
    ctx.start()
    watcher = WatchingPeer(ctx, "watcher")
    watcher.hello()
    for scope in ("board", "presence", "activity", "column:todo", "chat:general"):
        watcher.attach(scope)
    sender = WatchingPeer(ctx, "sender")
    sender.hello()
    send_all(ctx, watcher, sender, ACTIONS, REFUSED, "card:")
    # The reminder falls due and is raised by the daemon itself.
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not watcher.states.get("board", {}).get("reminders"):
        watcher.drain(quiet=0.5, limit=1)
    wire.check(watcher.states["board"].get("reminders"), "the reminder of card 1 was never raised")
    watcher.sync()
    wire.check(getattr(watcher, "checked", 0) > 60, f"only {getattr(watcher, 'checked', 0)} states were checked")

    # Put away, the reminder is gone from the board and stays gone after a restart (below).
    result = ctx.concord("send", "--home", ctx.home, "card:1", json.dumps({"dismissReminder": {}}))
    wire.check(result.returncode == 0, f"dismissing the reminder exited {result.returncode}: {result.stderr[:300]}")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and watcher.states["board"].get("reminders"):
        watcher.drain(quiet=0.3, limit=1)
    wire.check(not watcher.states["board"].get("reminders"), "the dismissed reminder is still on the board")
    result = ctx.concord("send", "--home", ctx.home, "board", json.dumps({"dismissReminder": {"id": 1}}))
    wire.check(result.returncode != 0, "dismissing a reminder that is not raised was taken")

    # What `concord state` prints: the whole state, and each scope.
    for scope, definition in [(None, "State"), ("board", "BoardView"), ("column:todo", "ColumnView"),
                              ("card:1", "CardView"), ("chat:general", "ChannelView"), ("presence", "Presence"),
                              ("activity", "ActivityView")]:
        result = ctx.concord("state", "--home", ctx.home, *([scope] if scope else []))
        wire.check(result.returncode == 0, f"`concord state {scope or ''}` exited {result.returncode}")
        state = json.loads(result.stdout)
        found = problems(state, definition)
        wire.check(not found, f"`concord state {scope or ''}`: {found[:3]}")

    ctx.restart()  # the daemon's `booted`, and the windows' presence ending
    after = WatchingPeer(ctx, "after restart")
    after.hello()
    after.attach("board")
    after.sync()
    # The card is still due in the past: its timer is set again at boot, and fires at once.
    after.drain(quiet=1.0, limit=5)
    wire.check(not after.states["board"].get("reminders"), "the dismissed reminder was raised again after the restart")
    ctx.stop_cleanly()
    ctx.verify()

    kinds = set()
    entries = ctx.export()
    version = schema_version()
    for entry in entries:
        wire.check(entry["app_version"] == version,
                   f"entry {entry.get('seq')} was written by version {entry['app_version']}; the schema is version {version}")
        wire.check(isinstance(entry["action_value"], dict), f"entry {entry.get('seq')}'s action is not JSON")
        found = problems(entry["action_value"], "LoggedAction")
        wire.check(not found, f"entry {entry.get('seq')}: {entry['action']}: {found[:3]}")
        kinds.add(kind(entry["action_value"]))
    missing = EVERY_KIND - kinds
    wire.check(not missing, f"the log holds no {sorted(missing)}")
    print(f"checked {len(ACTIONS)} actions, {watcher.checked + sender.checked + after.checked} states, {len(entries)} entries", flush=True)


# The sample app ----------------------------------------------------------------------------

SAMPLE_ACTIONS = [
    ("counter", {"increment": {}}),
    ("counter", {"add": {"amount": 9223372036854775805}}),
    ("counter", {"decrement": {}}),
    ("counter", {"add": {"amount": -9223372036854775806}}),
    ("notes", {"add": {"text": "milk 🥛 \u0000 café"}}),
    ("notes", {"add": {"text": "bread"}}),
    ("notes", {"addLater": {"text": "later", "milliseconds": 10}}),
    ("notes", {"remove": {"id": 2}}),
    ("note:1", {"edit": {"text": "oat milk"}}),
    ("note:1", {"toggle": {}}),
]
SAMPLE_REFUSED = [
    ("counter", {"counter": {"_0": {"increment": {}}}}),
    ("counter", {"add": {"amount": 1.5}}),
    ("counter", {"add": {"amount": 9223372036854775808}}),
    ("note:1", {"edit": {"_0": "x"}}),
]
SAMPLE_KINDS = {"counter.increment", "counter.add", "counter.decrement", "notes.add", "notes.addLater", "notes.remove",
                "note.edit", "note.toggle", "attached", "detached", "booted"}


def sample_kind(action):
    (outer, payload), = action.items()
    if outer == "note":
        payload = payload["action"]
    elif outer not in ("counter", "notes"):
        return outer
    return f"{outer}.{next(iter(payload))}"


def sample_traffic(ctx):
    use_schema("sample-app.schema.json")
    os.environ["CONCORD_APP"] = "sample"
    ctx.start()
    watcher = WatchingPeer(ctx, "watcher")
    watcher.hello()
    for scope in ("counter", "notes", "presence"):
        watcher.attach(scope)
    sender = WatchingPeer(ctx, "sender")
    sender.hello()
    send_all(ctx, watcher, sender, SAMPLE_ACTIONS, SAMPLE_REFUSED, "note:")
    watcher.drain(quiet=0.5, limit=3)
    for scope, definition in [(None, "State"), ("counter", "Int"), ("notes", "Notes"), ("note:1", "Note"),
                              ("presence", "Presence")]:
        result = ctx.concord("state", "--home", ctx.home, *([scope] if scope else []))
        wire.check(result.returncode == 0, f"`concord state {scope or ''}` exited {result.returncode}")
        found = problems(json.loads(result.stdout), definition)
        wire.check(not found, f"`concord state {scope or ''}`: {found[:3]}")
    ctx.restart()
    ctx.stop_cleanly()
    kinds = set()
    entries = ctx.export()
    version = schema_version()
    for entry in entries:
        wire.check(entry["app_version"] == version,
                   f"entry {entry.get('seq')} was written by version {entry['app_version']}; the schema is version {version}")
        found = problems(entry["action_value"], "LoggedAction")
        wire.check(not found, f"entry {entry.get('seq')}: {entry['action']}: {found[:3]}")
        kinds.add(sample_kind(entry["action_value"]))
    missing = SAMPLE_KINDS - kinds
    wire.check(not missing, f"the log holds no {sorted(missing)}")
    print(f"checked {len(SAMPLE_ACTIONS)} actions, {watcher.checked + sender.checked} states, {len(entries)} entries",
          flush=True)


SCENARIOS = [("workspace traffic", "workspace", workspace_traffic), ("sample traffic", "sample", sample_traffic)]


def main():
    ap = argparse.ArgumentParser(description="Checks the apps' JSON against their published schemas on real traffic.")
    ap.add_argument("--concordd", required=True, help="path of concordd")
    ap.add_argument("--concord", required=True, help="path of concord")
    args = ap.parse_args()
    wire.ARGS = argparse.Namespace(concordd=os.path.abspath(args.concordd), concord=os.path.abspath(args.concord))
    failed = 0
    for name, app, scenario in SCENARIOS:
        problem = wire.run_one(name, app, scenario)
        print(f"PASS {name}" if problem is None else f"FAIL {name}: {problem}", flush=True)
        failed += problem is not None
    print(f"{len(SCENARIOS) - failed} passed, {failed} failed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
