#!/usr/bin/env python3
"""Instructions the release concordd spends, counted by callgrind: repeatable where wall-clock
time on a shared 2-core machine is not. Compare a hot-path change by these before trusting
wall-clock ratios.

    scripts/bench.sh instructions                      # fan-out and action, the built daemon
    scripts/bench.sh instructions fan-out --windows 500
    scripts/bench.sh instructions action --against /tmp/concordd.before
    scripts/bench.sh instructions workspace            # editCard on a 100-card board
    scripts/bench.sh instructions chat                 # a message to one of two busy channels
    scripts/bench.sh instructions presence             # a window coming and going beside 100

Two measures, each the difference between a short and a long run, so start-up, attaching and
shutdown cancel out:

  * action:  one window sends increments to the sample app's counter, one at a time, waiting for
             each ack; instructions per action = (I(long) - I(short)) / (long - short).
  * workspace: the same for Workspace's `editCard`, on a board of 100 cards the sender watches,
             each edit retitling one card: what a team's board costs the daemon an action.
  * chat:    the same for a message said in #general and #random in turn, 100 messages in each
             already and both channels watched (their message ids are each channel's own).
  * presence: 100 Workspace windows watch `presence`; a window connects, attaches to the board
             and leaves, again and again: instructions per visit (two lifecycle actions, each
             changing the presence every window is sent).
  * fan-out: W windows attached to the counter that never read, and a sender doing the same;
             instructions per window per update = (I(W, long) - I(W, short)) / rounds / W, less
             the action's own share (the same runs with no windows), so what is left is what one
             more window costs an update.

All threads are counted (the event loop and the commit thread). Valgrind runs the daemon slowly
(about 50 times), so the sender paces itself; a run of fan-out takes about a minute.

Valgrind 3.19 cannot read the DWARF 5 of a Swift 6 build ("unhandled dwarf2 abbrev form"), so
the daemon is copied without its debug information (symbols stay, so callgrind_annotate names
functions: --keep prints where the profiles are). It also writes into the signal mask a program
passes to sigsuspend(2), which libdispatch keeps read-only: valgrind dies with SIGSEGV when the
daemon's main thread parks. A one-function preload (valgrind-sigsuspend.c, built here) passes
sigsuspend a writable copy.
"""
import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def prepare(binary, workdir, name):
    """A copy of `binary` valgrind can read: symbols kept, debug information dropped."""
    copy = os.path.join(workdir, name)
    subprocess.run(["strip", "--strip-debug", "-o", copy, binary], check=True)
    return copy


def build_preload(workdir):
    library = os.path.join(workdir, "valgrind-sigsuspend.so")
    source = os.path.join(ROOT, "scripts", "valgrind-sigsuspend.c")
    subprocess.run(["gcc", "-shared", "-fPIC", "-O2", "-o", library, source], check=True)
    return library


class Peer:
    """One window of the wire protocol: hello, attach to `scope`."""

    def __init__(self, path, scope):
        self.socket = socket.socket(socket.AF_UNIX)
        self.socket.connect(path)
        self.socket.sendall(b'{"type":"hello","protocol":1}\n')
        self.cseq = 0
        self.buffer = b""
        self.attach(scope)

    def attach(self, scope):
        self.socket.sendall(json.dumps({"type": "attach", "scope": scope}).encode() + b"\n")
        self.read_past(b'"snapshot"')

    def send(self, scope, action, pause=0.005):
        """Sends `action`, waits for its answer, then for `pause` seconds: what follows the
        answer on the loop (the other windows' updates) is done before the next action."""
        self.cseq += 1
        line = {"type": "send", "scope": scope, "client": "instructions", "cseq": self.cseq, "action": action}
        self.socket.sendall(json.dumps(line).encode() + b"\n")
        self.read_past(f'"cseq":{self.cseq},'.encode())
        time.sleep(pause)

    def read_past(self, text):
        while text not in self.buffer:
            chunk = self.socket.recv(65536)
            if not chunk:
                raise SystemExit("the daemon closed a window")
            self.buffer += chunk
        self.buffer = self.buffer[self.buffer.index(text) + len(text):]


# The traffic of each measure: `rounds` of what is counted, after what every run does alike.
# Valgrind runs the daemon about 50 times slower: each round waits until its work (updates to
# every window included) is done, so that every round costs the same. The counts depend on
# that pacing (a message measured 3.5 M instructions paced, 4.7 M unpaced): keep it to compare.

def increments(path, rounds, idle_windows=0):
    idle = [Peer(path, "counter") for _ in range(idle_windows)]
    sender = Peer(path, "counter")
    for _ in range(rounds):
        sender.send("counter", {"increment": {}}, pause=0.05 if idle_windows else 0.005)
    return idle + [sender]


def card_edits(path, rounds):
    sender = Peer(path, "board")
    for number in range(1, 101):
        sender.send("board", {"addCard": {"title": f"card {number}", "column": "todo"}})
    for number in range(rounds):
        sender.send("board", {"editCard": {"id": number % 100 + 1, "title": f"edit {number}"}})
    return [sender]


def messages(path, rounds):
    sender = Peer(path, "chat:general")
    sender.send("chat:general", {"createChannel": {"name": "random"}})
    sender.attach("chat:random")
    for number in range(200 + rounds):
        channel = "general" if number % 2 else "random"
        sender.send(f"chat:{channel}", {"say": {"text": f"message {number}"}})
    return [sender]


def visits(path, rounds):
    watchers = [Peer(path, "presence") for _ in range(100)]
    for _ in range(rounds):
        Peer(path, "board").socket.close()
        time.sleep(0.3)  # its attach and detach are committed and sent
    return watchers


def count(daemon, preload, workdir, app, traffic, rounds, keep):
    """Total instructions of one daemon run of `traffic` (every thread)."""
    run = tempfile.mkdtemp(prefix="run-", dir=workdir)
    home = os.path.join(run, "home")
    os.mkdir(home, 0o700)
    profile = os.path.join(run, "callgrind.out")
    environment = dict(os.environ, LD_PRELOAD=preload)
    process = subprocess.Popen(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={profile}", daemon, "--home", home, "--app", app],
        stdout=subprocess.DEVNULL, stderr=open(os.path.join(run, "valgrind.log"), "w"),
        env=environment, start_new_session=True)
    path = os.path.join(home, "concordd.sock")
    deadline = time.time() + 180
    while not os.path.exists(path):
        if process.poll() is not None or time.time() > deadline:
            raise SystemExit(f"the daemon under valgrind did not start; see {run}/valgrind.log")
        time.sleep(0.2)
    peers = traffic(path, rounds)
    time.sleep(1)
    os.killpg(process.pid, signal.SIGTERM)
    process.wait(180)
    for peer in peers:
        peer.socket.close()
    with open(profile) as lines:
        for line in lines:
            if line.startswith(("totals:", "summary:")):
                if keep:
                    print(f"    profile: {profile}", file=sys.stderr)
                return int(line.split()[1])
    raise SystemExit(f"no totals in {profile}")


def per_round(daemon, preload, workdir, keep, app, traffic, short, long):
    """Instructions a round of `traffic` costs: the difference of a long and a short run."""
    def total(rounds):
        return count(daemon, preload, workdir, app, traffic, rounds, keep)
    return (total(long) - total(short)) / (long - short)


# name: (app, traffic, short and long runs, what a round is)
MEASURES = {
    "action": ("sample", increments, 100, 600, "instructions per action (increment, one window)"),
    "workspace": ("workspace", card_edits, 20, 120, "instructions per Workspace editCard (100-card board, watched)"),
    "chat": ("workspace", messages, 20, 120, "instructions per Workspace message (two busy channels, watched)"),
    "presence": ("workspace", visits, 10, 40, "instructions per window visit beside 100 watching presence"),
}


def per_window(daemon, preload, workdir, keep, windows):
    """What one more window costs an update: increments with idle windows, less without."""
    def with_idle(path, rounds):
        return increments(path, rounds, idle_windows=windows)
    with_windows = per_round(daemon, preload, workdir, keep, "sample", with_idle, 20, 60)
    alone = per_round(daemon, preload, workdir, keep, "sample", increments, 20, 60)
    return (with_windows - alone) / windows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("measure", nargs="?", choices=[*MEASURES, "fan-out", "all"], default="all")
    parser.add_argument("--daemon", default=os.path.join(ROOT, ".build", "release", "concordd"), help="the daemon to count (default: the release build)")
    parser.add_argument("--against", help="a second daemon (an earlier build), counted in the same run")
    parser.add_argument("--windows", type=int, default=500, help="idle windows for fan-out (default 500)")
    parser.add_argument("--keep", action="store_true", help="keep the profiles and print where they are")
    arguments = parser.parse_args()
    for tool in ("valgrind", "gcc", "strip"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is needed (scripts/bench.sh instructions installs it)")
    workdir = tempfile.mkdtemp(prefix="concord-instructions-")
    preload = build_preload(workdir)
    daemons = [("daemon", arguments.daemon)] + ([("against", arguments.against)] if arguments.against else [])
    copies = [(name, path, prepare(path, workdir, name)) for name, path in daemons]
    for name, path, copy in copies:
        print(f"{name}: {path}")
        for measure, (app, traffic, short, long, what) in MEASURES.items():
            if arguments.measure in (measure, "all"):
                print(f"  {what}: {per_round(copy, preload, workdir, arguments.keep, app, traffic, short, long):,.0f}")
        if arguments.measure in ("fan-out", "all"):
            value = per_window(copy, preload, workdir, arguments.keep, arguments.windows)
            print(f"  instructions per window per update ({arguments.windows} idle windows): {value:,.0f}")
    if not arguments.keep:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
