#!/usr/bin/env python3
"""wire_contract_peer.py: an independent peer of concordd, written from the published schema
(schema/wire-protocol.schema.json) alone, with the Python 3.11 standard library only.

It checks the wire contract from the outside: client ids, NFC text, exact integers, line limits,
half-close and answer order. Each scenario gets a fresh home (0700, under /tmp) and its own
`concordd --home HOME` (`--app sample` unless the scenario needs Workspace), talks to
HOME/concordd.sock over a raw AF_UNIX socket, stops the daemon with SIGTERM and cleans up.

    python3 wire_contract_peer.py --concordd .build/debug/concordd --concord .build/debug/concord
    python3 wire_contract_peer.py ... --list          # the scenario names
    python3 wire_contract_peer.py ... --only NAME     # one scenario (may be repeated)

Prints `PASS name` or `FAIL name: expected ... got ...` per scenario, then `N passed, M failed`;
exits 1 when any failed. Every read has a timeout; every line the daemon writes is parsed with
`json` (exact ints), checked against the schema's message shapes and against the 1 MiB limit.
"""

import argparse
import copy
import json
import os
import re
import shutil
import signal
import socket
import string
import subprocess
import sys
import tempfile
import time
import unicodedata

LIMIT = 1_048_576  # WireLimits.maximumMessageBytes: bytes of a line, not counting its newline
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
READ_TIMEOUT = 10.0
BIG_TIMEOUT = 30.0
ERROR_CODES = {"bad-message", "too-long", "handshake", "unknown-scope", "not-attached", "bad-action",
               "overloaded", "unavailable"}

ARGS = None


class Fail(Exception):
    pass


class Timeout(Fail):
    pass


def check(cond, msg):
    if not cond:
        raise Fail(msg)


def short(value, limit=240):
    """A message or value as compact text, long strings cut with their length."""
    def shrink(v):
        if isinstance(v, str) and len(v) > 60:
            return v[:40] + f"...<{len(v.encode('utf-8', 'surrogatepass'))} bytes>"
        if isinstance(v, list):
            return [shrink(x) for x in v[:20]] + (["..."] if len(v) > 20 else [])
        if isinstance(v, dict):
            return {k: shrink(x) for k, x in v.items()}
        return v
    if isinstance(value, (bytes, bytearray)):
        text = repr(bytes(value[:limit]))
        return text + (f"...<{len(value)} bytes>" if len(value) > limit else "")
    text = json.dumps(shrink(value), ensure_ascii=True, separators=(",", ":"))
    return text if len(text) <= limit else text[:limit] + "..."


def is_int(v, lo=INT64_MIN, hi=INT64_MAX):
    return type(v) is int and lo <= v <= hi


def nfc(s):
    return unicodedata.normalize("NFC", s)


# ---------------------------------------------------------------------------------------------
# The schema's ServerMessage shapes, checked on every line the daemon writes.

def validate_server(msg):
    """Problems of one ServerMessage against the schema (empty when it fits)."""
    if not isinstance(msg, dict):
        return ["not a JSON object"]
    t = msg.get("type")
    p = []

    def need(key, pred, what):
        if key not in msg:
            p.append(f"{t}: missing {key}")
        elif not pred(msg[key]):
            p.append(f"{t}: {key} is not {what}: {short(msg[key], 80)}")

    def opt(key, pred, what):
        if key in msg and not pred(msg[key]):
            p.append(f"{t}: {key} is not {what}: {short(msg[key], 80)}")

    seq_ok = lambda v: is_int(v, 0, INT64_MAX)
    str_ok = lambda v: isinstance(v, str)
    client_ok = lambda v: isinstance(v, str) and len(v) >= 1
    if t == "welcome":
        need("protocol", lambda v: v == 1 and type(v) is int, "1")
        need("log_id", lambda v: isinstance(v, str) and re.fullmatch(r"[0-9a-f]{32}", v), "32 lowercase hex digits")
        need("user", str_ok, "a string")
        need("seq", seq_ok, "a Seq")
        need("app", str_ok, "a string")
        need("scopes", lambda v: isinstance(v, list) and all(
            isinstance(s, dict) and isinstance(s.get("name"), str) and type(s.get("parameterized")) is bool
            for s in v), "a list of ScopeInfo")
    elif t == "snapshot":
        need("scope", str_ok, "a string")
        need("seq", seq_ok, "a Seq")
        if "state" not in msg:
            p.append("snapshot: missing state")
        opt("log_replaced", lambda v: v is True, "true (written only when true)")
    elif t == "update":
        need("scope", str_ok, "a string")
        need("seq", seq_ok, "a Seq")
        if ("diff" in msg) == ("reset" in msg):
            p.append("update: not exactly one of diff and reset")
        opt("diff", lambda v: isinstance(v, list) and len(v) > 0, "a non-empty StateDiff")
    elif t == "ack":
        need("client", client_ok, "a ClientID")
        need("cseq", is_int, "an Int64")
        need("seq", seq_ok, "a Seq")
    elif t == "refused":
        need("client", client_ok, "a ClientID")
        need("cseq", is_int, "an Int64")
        need("reason", str_ok, "a string")
        opt("seq", seq_ok, "a Seq")
    elif t == "detached":
        need("scope", str_ok, "a string")
    elif t in ("ping", "pong"):
        pass
    elif t == "error":
        need("code", lambda v: v in ERROR_CODES, "an ErrorCode")
        need("message", str_ok, "a string")
        opt("cseq", is_int, "an Int64")
    elif t == "status":
        pass
    else:
        p.append(f"unknown type {short(t, 60)}")
    for k, v in msg.items():
        if v is None and not (t == "update" and k == "reset") and not (t == "snapshot" and k == "state"):
            p.append(f"{t}: {k} written as null (optional members are left out)")
    return p


# ---------------------------------------------------------------------------------------------
# StateDiff, applied as the schema describes it.

class DiffError(Exception):
    pass


def id_eq(a, b):
    num = lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
    if isinstance(a, str) and isinstance(b, str):
        return a == b
    if num(a) and num(b):
        return a == b
    return False


def find_id(arr, ident):
    if not isinstance(arr, list):
        raise DiffError(f"element id {short(ident)} in a non-array")
    for i, e in enumerate(arr):
        if isinstance(e, dict) and "id" in e and id_eq(e["id"], ident):
            return i
    return None


def step(node, comp):
    if isinstance(comp, str):
        if not isinstance(node, dict) or comp not in node:
            raise DiffError(f"no key {short(comp)}")
        return node[comp]
    if isinstance(comp, dict):
        if set(comp) != {"id"}:
            raise DiffError(f"bad path component {short(comp)}")
        i = find_id(node, comp["id"])
        if i is None:
            raise DiffError(f"no element with id {short(comp['id'])}")
        return node[i]
    if type(comp) is int:
        if not isinstance(node, list) or not 0 <= comp < len(node):
            raise DiffError(f"no index {comp}")
        return node[comp]
    raise DiffError(f"bad path component {short(comp)}")


def apply_diff(state, ops):
    state = copy.deepcopy(state)
    for op in ops:
        kind, path = op.get("op"), op.get("path")
        if not isinstance(path, list):
            raise DiffError(f"bad path in {short(op)}")
        if kind == "set" and path == []:
            state = copy.deepcopy(op["value"])
            continue
        if kind in ("append", "truncate"):
            target = state
            for c in path:
                target = step(target, c)
            if not isinstance(target, list):
                raise DiffError(f"{kind} on a non-array")
            if kind == "append":
                target.extend(copy.deepcopy(op["values"]))
            else:
                if not 0 <= op["count"] <= len(target):
                    raise DiffError("truncate past the end")
                del target[op["count"]:]
            continue
        if not path:
            raise DiffError(f"{kind} with an empty path")
        parent = state
        for c in path[:-1]:
            parent = step(parent, c)
        last = path[-1]
        if kind == "set":
            value = copy.deepcopy(op["value"])
            if isinstance(last, str):
                if not isinstance(parent, dict):
                    raise DiffError("key set in a non-object")
                parent[last] = value
            elif isinstance(last, dict):
                i = find_id(parent, last.get("id"))
                if i is None:
                    if not (isinstance(value, dict) and id_eq(value.get("id"), last.get("id"))):
                        raise DiffError("appended element without its id")
                    parent.append(value)
                else:
                    parent[i] = value
            else:
                if not isinstance(parent, list) or not 0 <= last < len(parent):
                    raise DiffError(f"set at index {last} out of range")
                parent[last] = value
        elif kind == "remove":
            if isinstance(last, str):
                if not isinstance(parent, dict) or last not in parent:
                    raise DiffError(f"remove of missing key {short(last)}")
                del parent[last]
            elif isinstance(last, dict):
                i = find_id(parent, last.get("id"))
                if i is None:
                    raise DiffError("remove of missing id")
                del parent[i]
            else:
                if not isinstance(parent, list) or not 0 <= last < len(parent):
                    raise DiffError("remove at index out of range")
                del parent[last]
        elif kind == "move":
            if not isinstance(last, dict):
                raise DiffError("move whose path does not end in an id")
            i = find_id(parent, last.get("id"))
            if i is None:
                raise DiffError("move of a missing id")
            element = parent.pop(i)
            after = op.get("after", "<absent>")
            if after == "<absent>":
                raise DiffError("move without after")
            if after is None:
                parent.insert(0, element)
            else:
                j = find_id(parent, after)
                if j is None:
                    raise DiffError("move after a missing id")
                parent.insert(j + 1, element)
        else:
            raise DiffError(f"unknown op {short(kind)}")
    return state


# ---------------------------------------------------------------------------------------------
# A peer: one raw connection.

class Peer:
    def __init__(self, ctx, name="peer"):
        self.ctx = ctx
        self.name = name
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(READ_TIMEOUT)
        self.sock.connect(os.path.join(ctx.home, "concordd.sock"))
        self.buf = bytearray()
        self.eof = False
        self.states = {}
        self.received = []
        self.violations = []
        self.write_error = None
        ctx.peers.append(self)
        ctx.all_peers.append(self)

    def note(self):
        return (f" ({self.write_error})" if self.write_error else "") + self.ctx.daemon_note()

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    def send_raw(self, data, timeout=BIG_TIMEOUT):
        self.sock.settimeout(timeout)
        try:
            self.sock.sendall(data)
        except socket.timeout:
            raise Timeout(f"{self.name}: writing {len(data)} bytes did not finish within {timeout}s")
        except OSError as e:
            # The daemon closed while we wrote (e.g. after too-long): what it said before is still
            # to be read, so the reads report it; note the failed write for their messages.
            self.write_error = f"writing {len(data)} bytes failed: {e}"

    def send(self, *messages, timeout=BIG_TIMEOUT):
        self.send_raw(b"".join(encode(m) for m in messages), timeout)

    def _line(self, timeout):
        """The next raw line (bytes without its newline), or None at EOF."""
        deadline = time.monotonic() + timeout
        while True:
            i = self.buf.find(b"\n")
            if i >= 0:
                line = bytes(self.buf[:i])
                del self.buf[:i + 1]
                return line
            if self.eof:
                if self.buf:
                    self.violations.append(f"{self.name}: stream ended in a half line of {len(self.buf)} bytes")
                    self.buf.clear()
                return None
            left = deadline - time.monotonic()
            if left <= 0:
                raise Timeout(f"{self.name}: nothing more within {timeout}s"
                              + (f" ({len(self.buf)} bytes of a line pending)" if self.buf else ""))
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(1 << 20)
            except socket.timeout:
                continue
            except ConnectionResetError:
                data = b""
            if not data:
                self.eof = True
            else:
                self.buf += data

    def recv(self, timeout=READ_TIMEOUT):
        """The next message (a dict), None at EOF; server pings are answered and skipped."""
        while True:
            line = self._line(timeout)
            if line is None:
                return None
            if len(line) > LIMIT:
                self.violations.append(f"{self.name}: the daemon wrote a line of {len(line)} bytes (> {LIMIT}): "
                                       f"{short(line, 120)}")
            try:
                msg = json.loads(line.decode("utf-8"), parse_constant=_no_constant)
            except (UnicodeDecodeError, ValueError) as e:
                self.violations.append(f"{self.name}: a line that is not JSON ({e}): {short(line, 120)}")
                continue
            for problem in validate_server(msg):
                self.violations.append(f"{self.name}: schema: {problem}")
            self.received.append(msg)
            if not isinstance(msg, dict):
                continue
            t = msg.get("type")
            if t == "snapshot" and isinstance(msg.get("scope"), str):
                self.states[msg["scope"]] = msg.get("state")
            elif t == "update" and isinstance(msg.get("scope"), str):
                scope = msg["scope"]
                if "reset" in msg:
                    self.states[scope] = msg["reset"]
                elif scope not in self.states:
                    self.violations.append(f"{self.name}: an update diff for {scope}, which it was never sent")
                else:
                    try:
                        self.states[scope] = apply_diff(self.states[scope], msg.get("diff") or [])
                    except (DiffError, KeyError, TypeError) as e:
                        self.violations.append(f"{self.name}: the diff of {short(msg)} does not apply: {e}")
            elif t == "ping":
                self.send({"type": "pong"})
                continue
            return msg

    def expect(self, what, timeout=READ_TIMEOUT):
        """The next message, which must be of type `what`."""
        msg = self.recv(timeout)
        check(msg is not None, f"expected {what}, got EOF{self.note()}")
        check(msg.get("type") == what, f"expected {what}, got {short(msg)}")
        return msg

    def until(self, pred, desc, timeout=READ_TIMEOUT):
        """Reads until a message matches; returns it and the messages before it."""
        before = []
        deadline = time.monotonic() + timeout
        while True:
            left = max(0.05, deadline - time.monotonic())
            try:
                msg = self.recv(left)
            except Timeout:
                raise Timeout(f"expected {desc} within {timeout}s, got "
                              f"{short([m.get('type') for m in before]) if before else 'nothing'}")
            check(msg is not None, f"expected {desc}, got EOF after "
                  f"{short([short(m, 100) for m in before])}{self.note()}")
            if pred(msg):
                return msg, before
            before.append(msg)

    def answer(self, client, cseq, timeout=READ_TIMEOUT):
        """The answer (ack, refused or error) to the send (client, cseq), and what came before it."""
        def is_answer(m):
            t = m.get("type")
            if t in ("ack", "refused"):
                return m.get("client") == client and m.get("cseq") == cseq
            return t == "error"
        return self.until(is_answer, f"the answer to ({short(client, 60)}, {cseq})", timeout)

    def acked(self, scope, action, client, cseq, what):
        """Sends an action that must be applied; its ack."""
        self.send(send_msg(scope, action, client, cseq))
        msg, _ = self.answer(client, cseq)
        check(msg.get("type") == "ack", f"{what}: expected ack, got {short(msg)}")
        return msg

    def hello(self):
        self.send({"type": "hello", "protocol": 1})
        return self.expect("welcome")

    def attach(self, scope, timeout=READ_TIMEOUT):
        self.send({"type": "attach", "scope": scope})
        msg, _ = self.until(lambda m: m.get("type") in ("snapshot", "error", "update"),
                            f"the snapshot of {scope}", timeout)
        check(msg.get("type") == "snapshot" and msg.get("scope") == scope,
              f"expected the snapshot of {scope}, got {short(msg)}")
        return msg

    def sync(self, timeout=READ_TIMEOUT):
        """ping, and the messages that came before the pong."""
        self.send({"type": "ping"})
        _, before = self.until(lambda m: m.get("type") == "pong", "pong", timeout)
        return before

    def drain(self, quiet=1.0, limit=READ_TIMEOUT, stop=None):
        """Whatever comes until `quiet` seconds pass without a message (or `stop` matches)."""
        out = []
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            try:
                msg = self.recv(quiet)
            except Timeout:
                break
            if msg is None:
                out.append({"type": "EOF"})
                break
            out.append(msg)
            if stop is not None and stop(msg):
                break
        return out

    def read_to_eof(self, timeout=READ_TIMEOUT):
        out = []
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Timeout(f"expected EOF within {timeout}s after {short([m.get('type') for m in out])}")
            try:
                msg = self.recv(left)
            except Timeout:
                raise Timeout(f"expected EOF within {timeout}s after {short([m.get('type') for m in out])}; "
                              "the connection stayed open")
            if msg is None:
                return out
            out.append(msg)


def runs(messages):
    """The types of messages, runs compressed: update, ack, pong or ack x50."""
    out = []
    for m in messages:
        t = m.get("type") if isinstance(m, dict) else str(m)
        if t in ("ack", "refused", "error") and "cseq" in m and len(messages) <= 8:
            t = f"{t}({m['cseq']})" if t != "error" else f"error({m.get('code')},{m['cseq']})"
        if out and out[-1][0] == t:
            out[-1][1] += 1
        else:
            out.append([t, 1])
    return ", ".join(t if n == 1 else f"{t} x{n}" for t, n in out)


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


def encode(message):
    if isinstance(message, (bytes, bytearray)):
        return bytes(message)
    return (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def send_msg(scope, action, client, cseq):
    return {"type": "send", "scope": scope, "action": action, "client": client, "cseq": cseq}


# ---------------------------------------------------------------------------------------------
# A scenario's world: a temporary home and its daemon.

def wait_for_file(path, what, timeout=180):
    deadline = time.monotonic() + timeout
    while not os.access(path, os.X_OK):
        if time.monotonic() > deadline:
            raise Fail(f"{what} {path} is missing or not executable")
        time.sleep(1)


class Context:
    def __init__(self, app):
        self.app = app
        self.root = tempfile.mkdtemp(prefix="wcp-", dir="/tmp")
        os.chmod(self.root, 0o700)
        self.home = os.path.join(self.root, "home")
        os.mkdir(self.home, 0o700)
        os.chmod(self.home, 0o700)
        self.proc = None
        self.logfile = None
        self.peers = []  # open connections, closed when the daemon stops
        self.all_peers = []  # every connection of the scenario, for the lines they read
        self.starts = 0

    # The daemon -----------------------------------------------------------------------------

    def start(self):
        args = [ARGS.concordd, "--home", self.home] + (["--app", "sample"] if self.app == "sample" else [])
        for attempt in range(30):
            wait_for_file(ARGS.concordd, "concordd")
            self.starts += 1
            self.logfile = open(os.path.join(self.root, f"concordd-{self.starts}.log"), "wb")
            try:
                self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=self.logfile,
                                             stderr=subprocess.STDOUT, start_new_session=True)
            except OSError:  # rebuilt under us (missing, text file busy): wait and retry
                self.logfile.close()
                time.sleep(1)
                continue
            sock = os.path.join(self.home, "concordd.sock")
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    break
                if os.path.exists(sock):
                    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    try:
                        probe.settimeout(2)
                        probe.connect(sock)
                        return
                    except OSError:
                        pass
                    finally:
                        probe.close()
                time.sleep(0.05)
            rc = self.proc.poll()
            if rc is None:
                self.kill()
                raise Fail(f"concordd did not open {sock} within 30s")
            if rc in (126, 127, -signal.SIGSEGV, -signal.SIGBUS) and attempt < 29:
                time.sleep(1)  # probably a half-written binary
                continue
            raise Fail(f"concordd exited with {rc} before its socket appeared: {self.tail()}")
        raise Fail("concordd could not be started")

    def tail(self, n=3):
        try:
            with open(os.path.join(self.root, f"concordd-{self.starts}.log"), "rb") as f:
                lines = f.read().decode("utf-8", "replace").strip().splitlines()
            return " | ".join(lines[-n:])
        except OSError:
            return "(no output)"

    def daemon_note(self):
        if self.proc is not None and self.proc.poll() is not None:
            return f" (concordd exited with {self.proc.returncode}: {self.tail(2)})"
        return ""

    def stop(self, timeout=30):
        """SIGTERM, and wait; returns the exit status."""
        for p in self.peers:
            p.close()
        self.peers = []
        if self.proc is None:
            return None
        proc, self.proc = self.proc, None
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
                self.logfile.close()
                raise Fail(f"concordd did not stop within {timeout}s of SIGTERM")
        self.logfile.close()
        return proc.returncode

    def stop_cleanly(self):
        rc = self.stop()
        check(rc == 0, f"concordd should exit 0 on SIGTERM, exited {rc}: {self.tail()}")

    def restart(self):
        self.stop_cleanly()
        self.start()

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                pass
        self.proc = None

    def cleanup(self):
        for p in self.peers:
            p.close()
        if self.proc is not None:
            try:
                self.stop(timeout=10)
            except Exception:
                self.kill()
        if self.logfile is not None:
            try:
                self.logfile.close()
            except OSError:
                pass
        shutil.rmtree(self.root, ignore_errors=True)

    # The CLI --------------------------------------------------------------------------------

    def concord(self, *args, timeout=120):
        for attempt in range(30):
            wait_for_file(ARGS.concord, "concord")
            try:
                return subprocess.run([ARGS.concord, *args], stdin=subprocess.DEVNULL, capture_output=True,
                                      timeout=timeout)
            except OSError:
                time.sleep(1)
            except subprocess.TimeoutExpired:
                raise Fail(f"`concord {' '.join(args)}` did not finish within {timeout}s")
        raise Fail("concord could not be run")

    def verify(self):
        r = self.concord("log", "verify", "--home", self.home)
        check(r.returncode == 0, f"`concord log verify` should exit 0, exited {r.returncode}: "
              f"{r.stderr.decode('utf-8', 'replace').strip()[:300]}")

    def export(self):
        """The entries of `concord log export --format jsonl`, each with its action decoded."""
        r = self.concord("log", "export", "--home", self.home, "--format", "jsonl")
        check(r.returncode == 0, f"`concord log export` should exit 0, exited {r.returncode}: "
              f"{r.stderr.decode('utf-8', 'replace').strip()[:300]}")
        entries = []
        for raw in r.stdout.split(b"\n"):
            if not raw.strip():
                continue
            e = json.loads(raw.decode("utf-8"))
            if e.get("type") != "entry":
                continue
            action = e.get("action")
            if isinstance(action, str):
                try:
                    e["action_value"] = json.loads(action)
                except ValueError:
                    e["action_value"] = action
            else:
                e["action_value"] = action
            entries.append(e)
        return entries

    def peer(self, name="peer", hello=True):
        p = Peer(self, name)
        if hello:
            p.hello()
        return p

    def violations(self):
        out = []
        for p in self.all_peers:
            out.extend(p.violations)
        return out


def strings_in(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from strings_in(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings_in(v)


# ---------------------------------------------------------------------------------------------
# Scenarios

SCENARIOS = []


def scenario(name, app="sample"):
    def register(fn):
        SCENARIOS.append((name, app, fn))
        return fn
    return register


# 1. Client ids --------------------------------------------------------------------------------

BAD_CLIENTS = [
    ("nul", "a\u0000b"),
    ("control", "a\u0001b"),
    ("escape", "\u001b[31m"),
    ("newline", "a\nb"),
    ("del", "a\u007fb"),
    ("space", "a b"),
    ("non-ascii", "\u00e9"),
    ("empty", ""),
    ("129-bytes", "c" * 129),
    ("reserved", "concordd"),
]
GOOD = "good-client"


def make_bad_client(label, bad):
    @scenario(f"client-id-rejects-{label}")
    def run(ctx):
        ctx.start()
        p = ctx.peer("w")
        p.attach("counter")
        p.send(send_msg("counter", {"increment": {}}, bad, 1))
        msg, before = p.answer(bad, 1)
        check(msg.get("type") == "error" and msg.get("code") == "bad-message",
              f"client {short(bad)}: expected error bad-message, got {short(msg)}")
        check(not any(m.get("type") == "update" for m in before),
              f"client {short(bad)}: an update came before the error: {short(before)}")
        p.send(send_msg("counter", {"increment": {}}, GOOD, 1))
        msg, _ = p.answer(GOOD, 1)
        check(msg.get("type") == "ack", f"after the bad send, a good send should be acked, got {short(msg)}")
        p.sync()
        check(p.states.get("counter") == 1, f"the counter should be 1 (only the good send), is {p.states.get('counter')}")
        ctx.stop_cleanly()
        ctx.verify()
        # the counter actions in the log (the daemon's own lifecycle entries, client "concordd", are
        # attached/detached/booted, never counter actions)
        recorded = [e for e in ctx.export()
                    if isinstance(e.get("action_value"), dict) and "counter" in e["action_value"]]
        wrong = [e for e in recorded if e.get("client") != GOOD]
        check(not wrong, f"client {short(bad)}: expected nothing recorded, the log has "
              f"{short([(e.get('seq'), e.get('client'), e.get('action')) for e in wrong])}")
        ctx.start()
        q = ctx.peer("after-restart")
        snap = q.attach("counter")
        check(snap.get("state") == 1, f"after a restart the counter should be 1, is {short(snap.get('state'))}")
    return run


for _label, _bad in BAD_CLIENTS:
    make_bad_client(_label, _bad)


@scenario("client-id-error-carries-cseq")
def _client_id_cseq(ctx):
    """The schema (Send): a send that cannot be taken is answered by `error` with its cseq."""
    ctx.start()
    p = ctx.peer("w")
    p.attach("counter")
    problems, missing, example = [], [], None
    for i, (label, bad) in enumerate(BAD_CLIENTS, 1):
        p.send(send_msg("counter", {"increment": {}}, bad, 1000 + i))
        msg, _ = p.answer(bad, 1000 + i)
        if msg.get("type") == "error" and "cseq" not in msg:
            missing.append(label)
            example = example or msg
        elif msg.get("type") != "error" or msg.get("cseq") != 1000 + i:
            problems.append(f"{label}: expected error with cseq {1000 + i}, got {short(msg, 110)}")
    p.sync()
    if missing:
        problems.insert(0, f"expected each error to carry its send's cseq (schema, Send: 'answered instead by error "
                        f"(with this cseq)'); no cseq for the ids {', '.join(missing)}, e.g. {short(example, 400)}")
    check(not problems, "; ".join(problems))


@scenario("client-id-accepts-128-bytes-and-punctuation")
def _client_id_good(ctx):
    ids = ["x" * 128, string.punctuation, "!" + "~" * 127, "A-z_0.9:/@#"]
    ctx.start()
    p = ctx.peer("w")
    p.attach("counter")
    seqs = []
    for i, cid in enumerate(ids):
        p.send(send_msg("counter", {"increment": {}}, cid, 1))
        msg, _ = p.answer(cid, 1)
        check(msg.get("type") == "ack" and msg.get("client") == cid,
              f"client id {short(cid)} ({len(cid)} bytes): expected ack naming it, got {short(msg)}")
        seqs.append(msg["seq"])
    p.sync()
    check(p.states.get("counter") == len(ids), f"the counter should be {len(ids)}, is {p.states.get('counter')}")
    # a retry of each gets the same ack
    for cid, seq in zip(ids, seqs):
        p.send(send_msg("counter", {"increment": {}}, cid, 1))
        msg, _ = p.answer(cid, 1)
        check(msg.get("type") == "ack" and msg.get("seq") == seq,
              f"a retry of ({short(cid)}, 1) should get the ack with seq {seq}, got {short(msg)}")
    ctx.stop_cleanly()
    ctx.verify()
    clients = {e.get("client") for e in ctx.export()}
    missing = [c for c in ids if c not in clients]
    check(not missing, f"the export should name the clients {short(missing)}")
    ctx.start()
    snap = ctx.peer("r").attach("counter")
    check(snap.get("state") == len(ids), f"after a restart the counter should be {len(ids)}, is {snap.get('state')}")


# 2. NFC -----------------------------------------------------------------------------------------

def note_texts(state):
    if not isinstance(state, list):
        return state
    return [n.get("text") if isinstance(n, dict) else n for n in state]


@scenario("nfc-send-normalized")
def _nfc_send(ctx):
    nfd = "cafe\u0301 A\u030angstro\u0308m"
    want = nfc(nfd)
    ctx.start()
    p = ctx.peer("w")
    p.attach("notes")
    p.send(send_msg("notes", {"add": {"text": nfd}}, "w", 1))
    msg, before = p.answer("w", 1)
    check(msg.get("type") == "ack", f"expected ack, got {short(msg)}")
    check(any(m.get("type") == "update" and m.get("scope") == "notes" for m in before),
          "expected an update of notes before the ack")
    got = note_texts(p.states.get("notes"))
    check(got == [want], f"the update should carry the NFC text {want!r}, carried {short(got)} "
          f"({[unicodedata.is_normalized('NFC', t) for t in got if isinstance(t, str)]} NFC)")
    q = ctx.peer("fresh")
    got = note_texts(q.attach("notes").get("state"))
    check(got == [want], f"the snapshot of notes should have the NFC text {want!r}, has {short(got)}")
    note = q.attach("note:1").get("state")
    check(isinstance(note, dict) and note.get("text") == want,
          f"the snapshot of note:1 should have the NFC text {want!r}, has {short(note)}")


@scenario("nfc-edit-to-nfd-spelling-no-update")
def _nfc_edit(ctx):
    ctx.start()
    p = ctx.peer("w")
    p.attach("notes")
    p.acked("notes", {"add": {"text": "caf\u00e9"}}, "w", 1, "adding the note")
    p.attach("note:1")
    p.send(send_msg("note:1", {"edit": {"text": "cafe\u0301"}}, "w", 2))
    msg, before = p.answer("w", 2)
    check(msg.get("type") in ("ack", "refused"), f"the edit: expected ack or refused, got {short(msg)}")
    before += p.sync()
    updates = [m for m in before if m.get("type") == "update"]
    check(not updates, f"editing 'caf\\u00e9' to its NFD spelling should bring no update, got {short(updates)}")
    check(note_texts(p.states.get("notes")) == ["caf\u00e9"], f"notes: {short(p.states.get('notes'))}")


HOSTILE = [
    ("nul", "a\u0000b\u0000"),
    ("controls", "".join(chr(c) for c in range(1, 32))),
    ("emoji", "\U0001F469\u200D\U0001F469\u200D\U0001F467\u200D\U0001F466 \U0001F3F3\uFE0F\u200D\U0001F308 "
              "\U0001F44D\U0001F3FD \U0001F9D1\U0001F3FF\u200D\U0001F4BB \U0001F1EB\U0001F1F7"),
    ("cjk", "\u6f22\u5b57\u30fb\u304b\u306a\u30fb\u30ab\u30ca\u30fb\ud55c\uad6d\uc5b4\u30fb\U00020BB7\u91ce\u5bb6"),
    ("json-specials", "\"quoted\" \\back\\slash /slash/ \u2028\u2029 \ufeff </script> \x7f"),
    ("nfd", "cafe\u0301 \u1100\u1161\u11a8 A\u030a"),
    ("100KB", ("Z\u00fcrich \u6771\u4eac \U0001F642 tab\there \u0001 " * 4000)[:100_000]),
]


@scenario("hostile-text-roundtrip")
def _hostile(ctx):
    want = [nfc(t) for _, t in HOSTILE]
    ctx.start()
    p = ctx.peer("w")
    p.attach("notes")
    for i, (label, text) in enumerate(HOSTILE, 1):
        p.send(send_msg("notes", {"add": {"text": text}}, "w", i))
        msg, _ = p.answer("w", i, timeout=BIG_TIMEOUT)
        check(msg.get("type") == "ack", f"adding the {label} text: expected ack, got {short(msg)}")
    p.sync()

    def compare(got, where):
        got = note_texts(got)
        check(isinstance(got, list) and len(got) == len(want), f"{where}: expected {len(want)} notes, got {short(got)}")
        for (label, _), w, g in zip(HOSTILE, want, got):
            check(g == w, f"{where}: the {label} text should round-trip as {short(w)}, came back as {short(g)}")

    compare(p.states.get("notes"), "the updates of notes")
    compare(ctx.peer("fresh").attach("notes", BIG_TIMEOUT).get("state"), "the snapshot of notes")
    ctx.stop_cleanly()
    ctx.verify()
    exported = set()
    for e in ctx.export():
        exported.update(strings_in(e.get("action_value")))
    for (label, _), w in zip(HOSTILE, want):
        check(w in exported, f"`concord log export` should contain the {label} text {short(w)} exactly")
    ctx.start()
    compare(ctx.peer("after-restart").attach("notes", BIG_TIMEOUT).get("state"), "after a restart, the snapshot of notes")


# 3. Integers -------------------------------------------------------------------------------------

@scenario("cseq-beyond-2^53-exact")
def _cseq_53(ctx):
    a, b = 2**53, 2**53 + 1
    ctx.start()
    p = ctx.peer("w")
    p.attach("counter")
    p.send(send_msg("counter", {"increment": {}}, "big", a))
    ack_a, _ = p.answer("big", a)
    check(ack_a.get("type") == "ack" and ack_a.get("cseq") == a, f"cseq 2^53: expected ack with cseq {a}, got {short(ack_a)}")
    p.send(send_msg("counter", {"increment": {}}, "big", b))
    ack_b, _ = p.until(lambda m: m.get("type") in ("ack", "refused", "error"), f"the answer to cseq {b}")
    check(ack_b.get("type") == "ack" and ack_b.get("cseq") == b,
          f"cseq 2^53+1: expected ack with cseq {b}, got {short(ack_b)}")
    check(ack_b.get("seq") != ack_a.get("seq"), f"2^53 and 2^53+1 should be two actions with different seqs, "
          f"both acked with seq {ack_a.get('seq')}")
    p.sync()
    check(p.states.get("counter") == 2, f"both should be applied (counter 2), counter is {p.states.get('counter')}")
    p.send(send_msg("counter", {"increment": {}}, "big", b))
    retry, before = p.until(lambda m: m.get("type") in ("ack", "refused", "error"), f"the answer to the retry of {b}")
    check(retry == ack_b, f"a retry of cseq 2^53+1 should get the same ack {short(ack_b)}, got {short(retry)}")
    before += p.sync()
    check(not [m for m in before if m.get("type") == "update"], f"a retry should change nothing, got {short(before)}")
    snap = ctx.peer("fresh").attach("counter")
    check(snap.get("state") == 2, f"the snapshot of counter should be 2, is {snap.get('state')}")


@scenario("cseq-int64-extremes-accepted")
def _cseq_extremes(ctx):
    ctx.start()
    p = ctx.peer("w")
    p.attach("counter")
    for client, cseq in (("max", INT64_MAX), ("min", INT64_MIN)):
        p.send(send_msg("counter", {"increment": {}}, client, cseq))
        msg, _ = p.until(lambda m: m.get("type") in ("ack", "refused", "error"), f"the answer to cseq {cseq}")
        check(msg.get("type") == "ack" and msg.get("cseq") == cseq and msg.get("client") == client,
              f"cseq {cseq}: expected ack with exactly that cseq, got {short(msg)}")
        p.send(send_msg("counter", {"increment": {}}, client, cseq))
        again, _ = p.until(lambda m: m.get("type") in ("ack", "refused", "error"), f"the answer to the retry of {cseq}")
        check(again == msg, f"a retry of cseq {cseq} should get {short(msg)}, got {short(again)}")
    p.sync()
    check(p.states.get("counter") == 2, f"the counter should be 2, is {p.states.get('counter')}")


@scenario("cseq-random-int64-roundtrip")
def _cseq_random(ctx):
    """Random Int64 cseqs, across the whole range: each is acked with exactly itself, and the
    export (after a restart) holds each exactly once, as Python's exact integers read them."""
    import random
    rng = random.Random(int.from_bytes(os.urandom(8), "big"))
    cseqs = sorted({rng.randint(INT64_MIN, INT64_MAX) for _ in range(60)}
                   | {2**53 + rng.randint(1, 1000) for _ in range(10)} | {-(2**53) - rng.randint(1, 1000) for _ in range(10)})
    ctx.start()
    p = ctx.peer("w")
    p.attach("counter")
    problems = []
    for cseq in cseqs:
        p.send(send_msg("counter", {"increment": {}}, "rnd", cseq))
        msg, _ = p.until(lambda m: m.get("type") in ("ack", "refused", "error"), f"the answer to cseq {cseq}")
        if not (msg.get("type") == "ack" and msg.get("cseq") == cseq):
            problems.append(f"cseq {cseq}: got {short(msg, 120)}")
    check(not problems, "; ".join(problems[:3]))
    ctx.restart()
    ctx.stop_cleanly()
    exported = [e.get("cseq") for e in ctx.export() if e.get("client") == "rnd"]
    check(sorted(exported) == cseqs, f"the export should hold each cseq exactly once; it differs at "
          f"{sorted(set(exported) ^ set(cseqs))[:3]}")


@scenario("cseq-rejects-non-int64")
def _cseq_bad(ctx):
    forms = ["9223372036854775808", "-9223372036854775809", "18446744073709551616", "1e3", "1.0", "1E2", "1.5",
             "-0.0"]
    ctx.start()
    p = ctx.peer("w")
    p.attach("counter")
    problems = []
    for i, form in enumerate(forms):
        client = f"form{i}"
        line = ('{"type":"send","scope":"counter","action":{"increment":{}},"client":"%s","cseq":%s}\n'
                % (client, form)).encode()
        p.send_raw(line)
        msg, _ = p.until(lambda m: m.get("type") in ("ack", "refused", "error"), f"the answer to cseq {form}")
        if not (msg.get("type") == "error" and msg.get("code") == "bad-message"):
            problems.append(f"cseq {form}: expected error bad-message, got {short(msg, 120)}")
    p.sync()
    check(not problems, "; ".join(problems))
    check(p.states.get("counter") == 0, f"nothing should be applied, the counter is {p.states.get('counter')}")


# 4. Line limits ------------------------------------------------------------------------------------

def padded(obj_bytes, total):
    check(len(obj_bytes) <= total, "padding target too small")
    return obj_bytes + b" " * (total - len(obj_bytes))


@scenario("line-exactly-1MiB-crlf-ping")
def _exact_ping(ctx):
    ctx.start()
    p = ctx.peer("w")
    line = padded(b'{"type":"ping"}', LIMIT)
    check(len(line) == LIMIT, "bad line")
    p.send_raw(line + b"\r\n")
    msg = p.recv(BIG_TIMEOUT)
    check(msg is not None, f"a ping padded to exactly {LIMIT} bytes + CRLF: expected pong, got EOF{p.note()}")
    check(msg.get("type") == "pong", f"a ping padded to exactly {LIMIT} bytes + CRLF: expected pong, got {short(msg)}")
    p.sync()


@scenario("line-exactly-1MiB-lf-ping")
def _exact_ping_lf(ctx):
    ctx.start()
    p = ctx.peer("w")
    p.send_raw(padded(b'{"type":"ping"}', LIMIT) + b"\n")
    msg = p.recv(BIG_TIMEOUT)
    check(msg is not None and msg.get("type") == "pong",
          f"a ping padded to exactly {LIMIT} bytes + LF: expected pong, got {short(msg) if msg else 'EOF' + p.note()}")
    p.sync()


@scenario("line-exactly-1MiB-crlf-send")
def _exact_send(ctx):
    ctx.start()
    p = ctx.peer("w")
    p.attach("counter")
    body = json.dumps(send_msg("counter", {"increment": {}}, "pad", 1), separators=(",", ":")).encode()
    p.send_raw(padded(body, LIMIT) + b"\r\n")
    msg, _ = p.answer("pad", 1, BIG_TIMEOUT)
    check(msg.get("type") == "ack", f"a send padded with whitespace to exactly {LIMIT} bytes + CRLF: expected ack, "
          f"got {short(msg)}")
    p.sync()
    check(p.states.get("counter") == 1, f"the counter should be 1, is {p.states.get('counter')}")


@scenario("line-exactly-1MiB-crlf-send-long-text")
def _exact_text(ctx):
    ctx.start()
    p = ctx.peer("w")
    p.attach("notes")
    template = json.dumps(send_msg("notes", {"add": {"text": ""}}, "pad", 1), separators=(",", ":")).encode()
    text = "t" * (LIMIT - len(template))
    line = json.dumps(send_msg("notes", {"add": {"text": text}}, "pad", 1), separators=(",", ":")).encode()
    check(len(line) == LIMIT, f"bad line {len(line)}")
    p.send_raw(line + b"\r\n")
    msg, _ = p.until(lambda m: m.get("type") in ("ack", "refused", "error"), "the answer to the long send", BIG_TIMEOUT)
    check(not (msg.get("type") == "error" and msg.get("code") == "too-long"),
          f"a send of exactly {LIMIT} bytes + CRLF (its text padded) should be judged as a message, got {short(msg)}")
    check(msg.get("type") != "error" or msg.get("cseq") == 1, f"an error answering the send should carry cseq 1: {short(msg)}")
    p.sync(BIG_TIMEOUT)
    fresh = ctx.peer("fresh").attach("notes", BIG_TIMEOUT)
    texts = note_texts(fresh.get("state"))
    if msg.get("type") == "ack":
        check(texts == [text], f"acked, so the snapshot should hold the text; holds {short(texts)}")


@scenario("line-limit-sample-note-near-1MiB")
def _near_limit_note(ctx):
    """A send just under the limit (LF only) whose text would make the notes snapshot 1 byte over it:
    whatever the daemon answers, no line it writes, then or on a later attach, may pass 1 MiB."""
    ctx.start()
    p = ctx.peer("w")
    p.attach("notes")
    template = json.dumps(send_msg("notes", {"add": {"text": ""}}, "pad", 1), separators=(",", ":")).encode()
    text = "t" * (LIMIT - len(template))
    p.send(send_msg("notes", {"add": {"text": text}}, "pad", 1))
    msg, _ = p.until(lambda m: m.get("type") in ("ack", "refused", "error"), "the answer to the long send", BIG_TIMEOUT)
    check(msg.get("type") != "error" or msg.get("code") != "too-long", f"the send is {LIMIT} bytes, not too long: {short(msg)}")
    p.sync(BIG_TIMEOUT)
    for scope in ("notes", "note:1"):
        fresh = ctx.peer(f"fresh {scope}")
        fresh.send({"type": "attach", "scope": scope})
        fresh.until(lambda m: m.get("type") in ("snapshot", "error"), f"the answer to attach {scope}", BIG_TIMEOUT)
    check(not ctx.violations(), f"the daemon answered {msg.get('type')}, then: " + "; ".join(v[:200] for v in ctx.violations()[:2]))


@scenario("line-over-1MiB-too-long-closes")
def _over(ctx):
    ctx.start()
    p = ctx.peer("w")
    p.send_raw(padded(b'{"type":"ping"}', LIMIT + 1) + b"\n")
    msg = p.recv(BIG_TIMEOUT)
    check(msg is not None, f"a line of {LIMIT + 1} bytes: expected error too-long, got EOF without it{p.note()}")
    check(msg.get("type") == "error" and msg.get("code") == "too-long",
          f"a line of {LIMIT + 1} bytes: expected error too-long, got {short(msg)}")
    rest = p.read_to_eof()
    check(not rest, f"after too-long the connection should close, got {short(rest)}")


@scenario("line-over-1MiB-crlf-too-long")
def _over_crlf(ctx):
    ctx.start()
    p = ctx.peer("w")
    p.send_raw(padded(b'{"type":"ping"}', LIMIT + 1) + b"\r\n")
    msg = p.recv(BIG_TIMEOUT)
    check(msg is not None and msg.get("type") == "error" and msg.get("code") == "too-long",
          f"a line of {LIMIT + 1} bytes + CRLF: expected error too-long, got {short(msg) if msg else 'EOF' + p.note()}")
    rest = p.read_to_eof()
    check(not rest, f"after too-long the connection should close, got {short(rest)}")


def find_card(board_state, card_id):
    """A card in the board scope's state, wherever it is."""
    found = []

    def walk(v):
        if isinstance(v, dict):
            if v.get("id") == card_id and "description" in v:
                found.append(v)
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
    walk(board_state)
    return found[0] if found else None


@scenario("workspace-descriptions-over-1MiB-refused", app="workspace")
def _descriptions(ctx):
    big = 700_000
    ctx.start()
    p = ctx.peer("w")
    p.attach("board")
    for i, title in enumerate(("one", "two"), 1):
        p.acked("board", {"addCard": {"title": title}}, "w", i, f"addCard {title}")
    p.attach("card:1")
    p.attach("activity")
    p.send(send_msg("board", {"editCard": {"id": 1, "description": "a" * big}}, "w", 3))
    first, _ = p.answer("w", 3, BIG_TIMEOUT)
    # The app may bound a description below 700 KB (then it is refused in words); either way the
    # second one may not be taken, since together they cannot fit in one line.
    check(first.get("type") == "ack" or (first.get("type") == "refused"
                                          and re.search(r"[A-Za-z]{3}", first.get("reason", ""))),
          f"the first 700 KB description: expected ack or a refusal in words, got {short(first)}")
    p.send(send_msg("board", {"editCard": {"id": 2, "description": "b" * big}}, "w", 4))
    second, _ = p.answer("w", 4, BIG_TIMEOUT)
    p.sync(BIG_TIMEOUT)
    problems = [v[:220] for v in p.violations[:2]]
    p.violations.clear()
    if second.get("type") != "refused":
        problems.append("a second 700 KB description would make the board's snapshot over 1 MiB: expected refused, "
                        f"got {short(second)}")
    elif re.search(r"[A-Za-z]{3}", second.get("reason", "")) is None:
        problems.append(f"the refusal should give a reason in words, gave {short(second.get('reason'))}")
    for scope in ("board", "card:2", "activity"):
        fresh = ctx.peer(f"fresh {scope}")
        try:
            snap = fresh.attach(scope, BIG_TIMEOUT)
        except Fail as e:
            problems.append(f"then attach {scope}: {e}")
            continue
        if fresh.violations:
            problems.append(f"then attach {scope}: " + fresh.violations[0][:200])
            fresh.violations.clear()
        elif scope == "board":
            card2 = find_card(snap.get("state"), 2)
            if card2 is not None and len(card2.get("description", "")) >= big and second.get("type") == "refused":
                problems.append("the refused description is in the board's snapshot")
    if not problems:
        ctx.restart()
        after = ctx.peer("after-restart")
        after.attach("board", BIG_TIMEOUT)
    check(not problems, "; ".join(problems))


@scenario("workspace-refusal-reason-within-1MiB", app="workspace")
def _reasons(ctx):
    name = "c" * 600_000
    ctx.start()
    p = ctx.peer("w")
    p.attach("board")
    p.acked("board", {"addCard": {"title": "x"}}, "w", 1, "addCard")
    actions = [
        ("moveCard to a 600 KB column", {"moveCard": {"id": 1, "column": name}}),
        ("addCard in a 600 KB column", {"addCard": {"title": "y", "column": name}}),
        ("renameColumn of a 600 KB column", {"renameColumn": {"name": name, "to": "z"}}),
        ("assign to a 600 KB user (named twice in the reason)", {"assign": {"id": 1, "user": "u" * 600_000}}),
    ]
    problems = []
    for cseq, (what, action) in enumerate(actions, 2):
        seen = len(p.violations)
        p.send(send_msg("board", action, "w", cseq))
        try:
            msg, _ = p.answer("w", cseq, BIG_TIMEOUT)
        except Fail as e:
            problems.append(f"{what}: {e}")
            break
        over = p.violations[seen:]
        if over:
            problems.append(f"{what}: {over[0][:200]}")
        elif msg.get("type") != "refused":
            problems.append(f"{what}: expected refused, got {short(msg, 150)}")
    if not problems:
        p.sync(BIG_TIMEOUT)
    check(not problems, "; ".join(problems))


# 5. Half-close ---------------------------------------------------------------------------------------

@scenario("half-close-after-send")
def _half_send(ctx):
    ctx.start()
    p = ctx.peer("w", hello=False)
    p.send({"type": "hello", "protocol": 1}, {"type": "attach", "scope": "counter"},
           send_msg("counter", {"increment": {}}, "w", 1))
    p.sock.shutdown(socket.SHUT_WR)
    got = p.read_to_eof()
    types = [m.get("type") for m in got]
    check(types == ["welcome", "snapshot", "update", "ack"],
          f"expected welcome, snapshot, update, ack then EOF; got {types} then EOF")


@scenario("half-close-after-ping")
def _half_ping(ctx):
    ctx.start()
    p = ctx.peer("w", hello=False)
    p.send({"type": "hello", "protocol": 1}, {"type": "ping"})
    p.sock.shutdown(socket.SHUT_WR)
    types = [m.get("type") for m in p.read_to_eof()]
    check(types == ["welcome", "pong"], f"expected welcome, pong then EOF; got {types} then EOF")


# 6. Order --------------------------------------------------------------------------------------------

@scenario("order-ack-before-pong")
def _order_pong(ctx):
    ctx.start()
    p = ctx.peer("w")
    p.attach("counter")
    p.send(send_msg("counter", {"increment": {}}, "w", 1), {"type": "ping"})
    pong, before = p.until(lambda m: m.get("type") == "pong", "pong")
    types = [m.get("type") for m in before]
    if types != ["update", "ack"]:
        later = p.drain(stop=lambda m: m.get("type") == "ack")
        raise Fail(f"send + ping in one write: expected update, ack(1), pong; got {runs(before + [pong] + later)}")


@scenario("order-ack-before-snapshot")
def _order_snapshot(ctx):
    ctx.start()
    p = ctx.peer("w")
    p.attach("counter")
    p.send(send_msg("counter", {"increment": {}}, "w", 1), {"type": "attach", "scope": "notes"})
    snap, before = p.until(lambda m: m.get("type") == "snapshot", "the snapshot of notes")
    types = [m.get("type") for m in before]
    if types != ["update", "ack"]:
        later = p.drain(stop=lambda m: m.get("type") == "ack")
        raise Fail(f"send + attach notes in one write: expected update, ack(1), snapshot; got "
                   f"{runs(before + [snap] + later)}")


@scenario("order-update-before-ack")
def _order_update(ctx):
    ctx.start()
    a = ctx.peer("a")
    b = ctx.peer("b")
    a.attach("notes")
    b.attach("notes")
    a.send(send_msg("notes", {"add": {"text": "milk"}}, "a", 1))
    ack, before = a.answer("a", 1)
    check(ack.get("type") == "ack", f"expected ack, got {short(ack)}")
    ups = [m for m in before if m.get("type") == "update" and m.get("scope") == "notes"]
    check(ups and ups[-1].get("seq") == ack.get("seq"),
          f"the update of the commit (seq {ack.get('seq')}) should come before its ack; before the ack came {short(before)}")
    b.sync()
    check(note_texts(b.states.get("notes")) == ["milk"], f"the other window should see the note: {short(b.states.get('notes'))}")


@scenario("order-50-pipelined-sends-then-ping")
def _order_50(ctx):
    ctx.start()
    p = ctx.peer("w")
    p.attach("counter")
    p.send(*[send_msg("counter", {"increment": {}}, "w", i) for i in range(1, 51)], {"type": "ping"})
    pong, before = p.until(lambda m: m.get("type") == "pong", "pong", BIG_TIMEOUT)
    acks = [m for m in before if m.get("type") in ("ack", "refused", "error")]
    cseqs = [m.get("cseq") for m in acks]
    if len(acks) != 50:
        later = p.drain(stop=lambda m: m.get("type") == "ack" and m.get("cseq") == 50)
        raise Fail(f"50 sends + ping in one write: expected 50 acks (cseq 1..50), then pong; got "
                   f"{runs(before + [pong] + later)}")
    check(all(m.get("type") == "ack" for m in acks), f"expected only acks, got {short([m for m in acks if m.get('type') != 'ack'])}")
    check(cseqs == list(range(1, 51)), f"expected 50 acks in cseq order 1..50 before the pong, got {short(cseqs)}")
    last_update = -1
    for m in before:
        if m.get("type") == "update":
            last_update = m.get("seq")
        elif m.get("type") == "ack":
            check(last_update >= m.get("seq"), f"the ack of cseq {m.get('cseq')} (seq {m.get('seq')}) came before "
                  f"the update of its commit (latest update seq {last_update})")
    check(p.states.get("counter") == 50, f"the counter should be 50, is {p.states.get('counter')}")


# 7. A window's pace (hello.update_interval_ms) ------------------------------------------------

def pace_allowed(raw):
    """The schema's rule for hello.update_interval_ms, read from its text: absent or null, or an
    integer written in digits from 0 to 1000."""
    if raw == "null":
        return True
    return re.fullmatch(r"-?(0|[1-9][0-9]*)", raw) is not None and 0 <= int(raw) <= 1000


@scenario("pace-hello-takes-0-to-1000-only")
def _pace_bounds(ctx):
    ctx.start()
    problems = []
    for raw in ["0", "1", "20", "1000", "null", "-0", "-1", "1001", "1.0", "1e3", "20.5", '"20"', "true", "[]",
                str(2**53 + 1), str(2**63 - 1), str(-2**63), str(2**64)]:
        p = ctx.peer(f"hello {raw}", hello=False)
        p.send_raw(('{"type":"hello","protocol":1,"update_interval_ms":' + raw + '}\n').encode())
        msg = p.recv()
        expected = "welcome" if pace_allowed(raw) else "error"
        if msg is None or msg.get("type") != expected or (expected == "error" and msg.get("code") != "bad-message"):
            problems.append(f"update_interval_ms {raw}: expected {expected}"
                            f"{' bad-message' if expected == 'error' else ''}, got {short(msg, 160)}")
            continue
        if expected == "error":
            # The hello was not taken, and the connection stays open for another.
            welcome = p.hello()
            check(welcome.get("type") == "welcome", f"after a refused hello, a plain one: {short(welcome)}")
        p.close()
    check(not problems, "; ".join(problems))


class Watcher:
    """Reads a peer on a thread, noting when each update arrives."""

    def __init__(self, peer):
        import threading
        self.peer = peer
        self.updates = []  # (monotonic time, seq)
        self.stopping = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.stopping:
            try:
                msg = self.peer.recv(0.1)
            except Timeout:
                continue
            if msg is None:
                return
            if msg.get("type") == "update":
                self.updates.append((time.monotonic(), msg.get("seq"), msg.get("scope")))

    def stop(self):
        self.stopping = True
        self.thread.join(5)


def paced_peer(ctx, interval, *scopes):
    """A window that asks for an update at most every `interval` seconds, attached to `scopes`."""
    w = ctx.peer("paced", hello=False)
    w.send({"type": "hello", "protocol": 1, "update_interval_ms": int(interval * 1000)})
    w.expect("welcome")
    for scope in scopes:
        w.attach(scope)
    return w


@scenario("pace-merges-others-changes")
def _pace_merges(ctx):
    """A window that asks for updates every 250 ms gets no two closer than that while another
    window's 60 actions commit over 2 s, and then holds the final state with the last seq."""
    interval = 0.25
    ctx.start()
    w = paced_peer(ctx, interval, "counter")
    s = ctx.peer("sender")
    s.attach("counter")
    watcher = Watcher(w)
    started = time.monotonic()
    last = None
    for cseq in range(1, 61):
        last = s.acked("counter", {"increment": {}}, "pacer", cseq, f"increment {cseq}")
        time.sleep(0.03)
    finished = time.monotonic()
    deadline = finished + interval + 2
    while time.monotonic() < deadline and (not watcher.updates or watcher.updates[-1][1] != last.get("seq")):
        time.sleep(0.02)
    watcher.stop()
    updates = watcher.updates
    check(updates and updates[-1][1] == last.get("seq"),
          f"the paced window's last update should bring it to seq {last.get('seq')}, got {short(updates[-3:])}")
    check(w.states.get("counter") == 60, f"the paced window should hold 60, holds {w.states.get('counter')}")
    gaps = [b[0] - a[0] for a, b in zip(updates, updates[1:])]
    # Arrival times: a write held up on its way may arrive closer to the next; 100 ms of slack.
    check(min(gaps, default=1) >= interval - 0.1,
          f"updates {min(gaps) * 1000:.0f} ms apart, under the asked {interval * 1000:.0f} ms "
          f"({len(updates)} updates in {finished - started:.2f} s)")
    check(len(updates) <= (finished - started) / interval + 3,
          f"{len(updates)} updates in {finished - started:.2f} s at one per {interval * 1000:.0f} ms")


@scenario("pace-holds-each-scope-on-its-own")
def _pace_each_scope(ctx):
    """The pace is per scope: a window paced at 250 ms that watches the counter and the notes
    gets a note added once within two intervals, while the counter changes every 30 ms."""
    interval = 0.25
    ctx.start()
    w = paced_peer(ctx, interval, "counter", "notes")
    s = ctx.peer("sender")
    s.attach("counter")
    s.attach("notes")
    watcher = Watcher(w)
    noted = None
    started = time.monotonic()
    cseq = 0
    while time.monotonic() - started < 2.0:
        cseq += 1
        s.acked("counter", {"increment": {}}, "busy", cseq, f"increment {cseq}")
        if noted is None and time.monotonic() - started > 0.4:
            s.send(send_msg("notes", {"add": {"text": "milk"}}, "noter", 1))
            ack, _ = s.answer("noter", 1)
            check(ack.get("type") == "ack", f"the note: expected an ack, got {short(ack)}")
            noted = (time.monotonic(), ack.get("seq"))
        time.sleep(0.03)
    time.sleep(2 * interval + 0.3)
    watcher.stop()
    notes = [u for u in watcher.updates if u[2] == "notes" and u[1] >= noted[1]]
    check(notes, f"the notes' update never came while the counter kept changing "
          f"({len(watcher.updates)} updates, all of {short(sorted({u[2] for u in watcher.updates}))})")
    late = notes[0][0] - noted[0]
    check(late <= 2 * interval + 0.3, f"the notes' update came {late * 1000:.0f} ms after the note, "
          f"more than two intervals of {interval * 1000:.0f} ms")
    check(note_texts(w.states.get("notes")) == ["milk"], f"the window's notes: {short(w.states.get('notes'))}")


@scenario("pace-half-close-still-gets-held-changes")
def _pace_half_close(ctx):
    """A paced window that shuts its write side while a change is held is sent that change
    before the daemon closes: the schema's half-close answers everything, and the state too."""
    ctx.start()
    w = paced_peer(ctx, 1.0, "counter")
    s = ctx.peer("sender")
    s.attach("counter")
    s.acked("counter", {"increment": {}}, "half", 1, "the first increment")
    w.until(lambda m: m.get("type") == "update", "the first update")
    last = s.acked("counter", {"increment": {}}, "half", 2, "the second increment")
    w.sock.shutdown(socket.SHUT_WR)
    rest = w.read_to_eof()
    check(w.states.get("counter") == 2, f"after the half-close the window holds {w.states.get('counter')}, not 2; "
          f"it read {short(rest)} before the close (the held change was seq {last.get('seq')})")


@scenario("pace-never-holds-a-windows-own-answer")
def _pace_own(ctx):
    """A window paced at 1 s still gets, before each ack of its own, the update that has its
    action: the schema's order holds. Other windows' changes merge into those."""
    ctx.start()
    w = paced_peer(ctx, 1.0, "counter")
    s = ctx.peer("sender")
    s.attach("counter")
    updates = 0
    started = time.monotonic()
    for i in range(1, 11):
        s.acked("counter", {"increment": {}}, "other", i, f"the other window's increment {i}")
        w.send(send_msg("counter", {"increment": {}}, "own", i))
        ack, before = w.answer("own", i)
        check(ack.get("type") == "ack", f"expected an ack, got {short(ack)}")
        ups = [m for m in before if m.get("type") == "update"]
        updates += len(ups)
        check(ups and ups[-1].get("seq") >= ack.get("seq"),
              f"the ack of seq {ack.get('seq')} came without the update of its commit first: {short(before)}")
        check(w.states.get("counter") == 2 * i, f"at its ack {i} the window holds {w.states.get('counter')}, not {2 * i}")
    elapsed = time.monotonic() - started
    check(updates <= 10 + elapsed + 1, f"{updates} updates for 10 own answers in {elapsed:.2f} s at one per second")


# ---------------------------------------------------------------------------------------------

def run_one(name, app, fn):
    ctx = Context(app)
    try:
        fn(ctx)
        problems = ctx.violations()
        check(not problems, "; ".join(problems[:3]) + (f" (+{len(problems) - 3} more)" if len(problems) > 3 else ""))
        return None
    except Fail as e:
        extra = ctx.violations()
        text = str(e)
        if extra and extra[0][:80] not in text:
            text += f" [also: {extra[0][:200]}]"
        return text
    except Exception as e:  # a bug here, or the daemon vanished under a socket call
        return f"unexpected {type(e).__name__}: {e}{ctx.daemon_note()}"
    finally:
        ctx.cleanup()


def main():
    global ARGS
    ap = argparse.ArgumentParser(description="An independent peer that checks concordd's wire contract.")
    ap.add_argument("--concordd", required=False, help="path of concordd")
    ap.add_argument("--concord", required=False, help="path of concord")
    ap.add_argument("--only", action="append", metavar="NAME", help="run only this scenario (repeatable)")
    ap.add_argument("--list", action="store_true", help="list the scenarios and exit")
    ARGS = ap.parse_args()
    names = [n for n, _, _ in SCENARIOS]
    if ARGS.list:
        print("\n".join(names))
        return 0
    if not ARGS.concordd or not ARGS.concord:
        ap.error("--concordd and --concord are required")
    ARGS.concordd = os.path.abspath(ARGS.concordd)
    ARGS.concord = os.path.abspath(ARGS.concord)
    selected = SCENARIOS
    if ARGS.only:
        unknown = [n for n in ARGS.only if n not in names]
        if unknown:
            ap.error(f"unknown scenario(s): {', '.join(unknown)} (see --list)")
        selected = [s for s in SCENARIOS if s[0] in ARGS.only]
    passed = failed = 0
    for name, app, fn in selected:
        problem = run_one(name, app, fn)
        if problem is None:
            passed += 1
            print(f"PASS {name}", flush=True)
        else:
            failed += 1
            print(f"FAIL {name}: {problem}".replace("\n", "\\n"), flush=True)
    print(f"{passed} passed, {failed} failed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
