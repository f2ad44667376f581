#!/usr/bin/env python3
"""An independent laptop end for `concord dial-stdio --mux`, written from the frame format of
MuxFrame's documentation alone: a 9-byte header — channel (4 bytes, big-endian), kind (1 byte:
open 1, opened 2, data 3, end 4, close 5, pause 6, resume 7), payload length (4 bytes,
big-endian, at most 65,536) — then the payload.

It runs `concord dial-stdio --mux --home HOME` against a real concordd and checks what a laptop's
relay relies on: each channel is a connection of its own, a half-close is passed on, a channel
without a daemon is closed with the reason, a pause holds up that channel alone, bytes pass
unchanged, and a malformed frame ends the trunk instead of being guessed at.

    python3 mux_peer.py --concordd PATH --concord PATH [--only NAME]
"""
import argparse
import json
import os
import random
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

OPEN, OPENED, DATA, END, CLOSE, PAUSE, RESUME = 1, 2, 3, 4, 5, 6, 7
ARGS = None


class Fail(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Fail(msg)


def frame(channel, kind, payload=b""):
    return struct.pack(">IBI", channel, kind, len(payload)) + payload


def line(message):
    return (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


class Daemon:
    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="mux-", dir="/tmp")
        os.chmod(self.root, 0o700)
        self.home = os.path.join(self.root, "home")
        os.mkdir(self.home, 0o700)
        self.proc = None

    def start(self):
        self.log = open(os.path.join(self.root, "concordd.log"), "wb")
        self.proc = subprocess.Popen([ARGS.concordd, "--home", self.home, "--app", "sample"], stdin=subprocess.DEVNULL,
                                     stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        sock = os.path.join(self.home, "concordd.sock")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            check(self.proc.poll() is None, "concordd exited before its socket appeared")
            if os.path.exists(sock):
                probe = socket.socket(socket.AF_UNIX)
                try:
                    probe.connect(sock)
                    return self
                except OSError:
                    pass
                finally:
                    probe.close()
            time.sleep(0.05)
        raise Fail("concordd did not start")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        shutil.rmtree(self.root, ignore_errors=True)


class Trunk:
    """`concord dial-stdio --mux` on pipes, as sshd runs it; frames written in random pieces."""

    def __init__(self, home):
        env = dict(os.environ, CONCORD_APP="sample")
        self.proc = subprocess.Popen([ARGS.concord, "dial-stdio", "--mux", "--home", home], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, bufsize=0)
        self.buffer = b""
        self.lines = {}  # channel -> bytes received, not yet split
        self.kinds = []  # (channel, kind, payload) of every frame but data

    def write(self, data, pieces=True):
        rng = random.Random(len(data))
        at = 0
        while at < len(data):
            size = rng.randint(1, 7) if pieces and len(data) < 4096 else len(data)
            self.proc.stdin.write(data[at:at + size])
            at += size
        self.proc.stdin.flush()

    def read_frames(self, timeout):
        """Frames that arrive within `timeout` seconds (returns at the first batch)."""
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            return []
        chunk = os.read(self.proc.stdout.fileno(), 65536)
        if not chunk:
            raise EOFError
        self.buffer += chunk
        frames = []
        while len(self.buffer) >= 9:
            channel, kind, length = struct.unpack(">IBI", self.buffer[:9])
            check(kind in range(1, 8), f"a frame of unknown kind {kind} from the server")
            check(length <= 65536, f"a frame of {length} bytes from the server")
            if len(self.buffer) < 9 + length:
                break
            frames.append((channel, kind, self.buffer[9:9 + length]))
            self.buffer = self.buffer[9 + length:]
        for channel, kind, payload in frames:
            if kind == DATA:
                self.lines[channel] = self.lines.get(channel, b"") + payload
            else:
                self.kinds.append((channel, kind, payload))
        return frames

    def messages(self, channel):
        text = self.lines.get(channel, b"")
        return [json.loads(part) for part in text.split(b"\n")[:-1]]

    def until(self, predicate, what, timeout=10):
        deadline = time.monotonic() + timeout
        while not predicate():
            left = deadline - time.monotonic()
            check(left > 0, f"no {what} within {timeout} s")
            self.read_frames(left)

    def has(self, channel, kind):
        return any(c == channel and k == kind for c, k, _ in self.kinds)

    def end(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


HELLO = {"type": "hello", "protocol": 1}
ATTACH = line({"type": "attach", "scope": "counter"})


def send_message(client, cseq):
    return {"type": "send", "scope": "counter", "client": client, "cseq": cseq, "action": {"increment": {}}}


def acks(trunk, channel):
    return [m for m in trunk.messages(channel) if m.get("type") == "ack"]


def three_windows_one_trunk(daemon):
    trunk = Trunk(daemon.home)
    try:
        data = b""
        for channel in (1, 2, 3):
            data += frame(channel, OPEN) + frame(channel, DATA, line(HELLO) + ATTACH)
        trunk.write(data)
        for channel in (1, 2, 3):
            trunk.until(lambda: trunk.has(channel, OPENED), f"opened for channel {channel}")
            trunk.until(lambda: any(m.get("type") == "snapshot" for m in trunk.messages(channel)), f"snapshot on {channel}")
            check(trunk.messages(channel)[0]["type"] == "welcome", f"channel {channel} began with {trunk.messages(channel)[0]}")
        # Each channel's sends are answered on that channel alone.
        for cseq in range(1, 21):
            trunk.write(b"".join(frame(c, DATA, line(send_message(f"window-{c}", cseq))) for c in (1, 2, 3)))
        for channel in (1, 2, 3):
            trunk.until(lambda: len(acks(trunk, channel)) == 20, f"20 acks on channel {channel}")
            check([a["cseq"] for a in acks(trunk, channel)] == list(range(1, 21)), f"channel {channel}: {acks(trunk, channel)}")
            check(all(a["client"] == f"window-{channel}" for a in acks(trunk, channel)), f"another window's ack on {channel}")
    finally:
        trunk.end()


def half_close_answers_then_ends(daemon):
    trunk = Trunk(daemon.home)
    try:
        trunk.write(frame(5, OPEN) + frame(5, DATA, line(HELLO) + ATTACH + line(send_message("closer", 1))) + frame(5, END))
        trunk.until(lambda: trunk.has(5, END) or trunk.has(5, CLOSE), "the end of the daemon's side")
        check([m["type"] for m in trunk.messages(5)][:1] == ["welcome"], f"{trunk.messages(5)}")
        check(len(acks(trunk, 5)) == 1, f"the send before the half-close was not answered: {trunk.messages(5)}")
    finally:
        trunk.end()


def no_daemon_is_a_close_with_the_reason(daemon):
    empty = tempfile.mkdtemp(prefix="mux-none-", dir="/tmp")
    trunk = Trunk(empty)
    try:
        trunk.write(frame(9, OPEN) + frame(9, DATA, line(HELLO)))
        trunk.until(lambda: trunk.has(9, CLOSE), "a close")
        reason = next(p for c, k, p in trunk.kinds if c == 9 and k == CLOSE).decode()
        check("no daemon runs in" in reason and "concord daemon start" in reason, f"the reason: {reason!r}")
        check(not trunk.has(9, OPENED), "opened without a daemon")
        check(trunk.proc.poll() is None, "the trunk ended with one failed channel")
    finally:
        trunk.end()
        shutil.rmtree(empty, ignore_errors=True)


def a_pause_holds_up_that_channel_alone(daemon):
    trunk = Trunk(daemon.home)
    try:
        trunk.write(frame(1, OPEN) + frame(1, DATA, line(HELLO) + ATTACH)
                    + frame(2, OPEN) + frame(2, DATA, line(HELLO) + ATTACH))
        for channel in (1, 2):
            trunk.until(lambda: any(m.get("type") == "snapshot" for m in trunk.messages(channel)), f"the snapshot on {channel}")
        trunk.write(frame(1, PAUSE))
        time.sleep(0.2)
        held = len(trunk.lines.get(1, b""))
        for cseq in range(1, 31):
            trunk.write(frame(2, DATA, line(send_message("unpaused", cseq))))
        trunk.until(lambda: len(acks(trunk, 2)) == 30, "30 acks on the channel that is not paused")
        deadline = time.monotonic() + 0.5
        while time.monotonic() < deadline:
            trunk.read_frames(0.1)
        check(len(trunk.lines.get(1, b"")) == held, "data came on a paused channel")
        trunk.write(frame(1, RESUME))
        trunk.until(lambda: any(m.get("type") == "update" for m in trunk.messages(1)), "the held updates after resume")
    finally:
        trunk.end()


def hostile_bytes_pass_unchanged(daemon):
    trunk = Trunk(daemon.home)
    try:
        trunk.write(frame(1, OPEN) + frame(1, DATA, line(HELLO)) + frame(2, OPEN) + frame(2, DATA, line(HELLO) + ATTACH))
        for channel in (1, 2):
            trunk.until(lambda: any(m.get("type") == "welcome" for m in trunk.messages(channel)), f"welcome on {channel}")
        # A line over the daemon's limit, in frames of the most a frame carries: the daemon
        # refuses it on that channel; the other goes on.
        huge = b'{"type":"send","scope":"counter","client":"big","cseq":1,"action":{"x":"' + "日😀\u0000e\u0301".encode() * 150_000 + b'"}}\n'
        for at in range(0, len(huge), 65536):
            trunk.write(frame(1, DATA, huge[at:at + 65536]), pieces=False)
        # As on a socket of its own, the daemon's refusal arrives before the connection ends, even
        # though the daemon closes while the rest of the line is still being written to it.
        trunk.until(lambda: any(m.get("type") == "error" for m in trunk.messages(1)) or trunk.has(1, END) or trunk.has(1, CLOSE),
                    "the refusal of a huge line")
        check(any(m.get("type") == "error" and m.get("code") == "too-long" for m in trunk.messages(1)),
              f"the channel ended without the daemon's refusal: {trunk.messages(1)}")
        # Data for a channel that was never opened is dropped, and nothing else is disturbed.
        trunk.write(frame(77, DATA, line(send_message("ghost", 1))) + frame(2, DATA, line(send_message("kept", 1))))
        trunk.until(lambda: len(acks(trunk, 2)) == 1, "the ack on channel 2")
        check(trunk.proc.poll() is None, "the trunk ended")
    finally:
        trunk.end()


def malformed_frames_end_the_trunk(daemon):
    for name, bad in [("unknown kind", struct.pack(">IBI", 1, 42, 0)), ("oversized", struct.pack(">IBI", 1, DATA, 65537))]:
        trunk = Trunk(daemon.home)
        try:
            trunk.write(frame(1, OPEN) + bad, pieces=False)
            try:
                trunk.proc.wait(5)
            except subprocess.TimeoutExpired:
                raise Fail(f"a frame of {name} did not end the trunk")
        finally:
            trunk.end()


SCENARIOS = {
    "three-windows-one-trunk": three_windows_one_trunk,
    "half-close-answers-then-ends": half_close_answers_then_ends,
    "no-daemon-is-a-close-with-the-reason": no_daemon_is_a_close_with_the_reason,
    "a-pause-holds-up-that-channel-alone": a_pause_holds_up_that_channel_alone,
    "hostile-bytes-pass-unchanged": hostile_bytes_pass_unchanged,
    "malformed-frames-end-the-trunk": malformed_frames_end_the_trunk,
}


def main():
    global ARGS
    parser = argparse.ArgumentParser(description="An independent laptop end for concord dial-stdio --mux.")
    parser.add_argument("--concordd", required=True)
    parser.add_argument("--concord", required=True)
    parser.add_argument("--only", action="append")
    ARGS = parser.parse_args()
    passed = failed = 0
    for name, scenario in SCENARIOS.items():
        if ARGS.only and name not in ARGS.only:
            continue
        daemon = Daemon().start()
        try:
            scenario(daemon)
            passed += 1
            print(f"ok   {name}")
        except (Fail, EOFError, OSError) as error:
            failed += 1
            print(f"FAIL {name}: {error!r}")
        finally:
            daemon.stop()
        sys.stdout.flush()
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
