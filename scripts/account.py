#!/usr/bin/env python3
"""Where the CPU of one durable action goes: concordd beside the C reference daemon.

For each daemon (concordd, and the C reference's ref_daemon) and each client count, the tool starts a
fresh daemon, drives it closed-loop (each connection has one action outstanding), lets it warm up,
then over a measured window of --seconds it reads:

  * acks: concordd's are counted by this tool's clients; the reference's are the rows its log gained
    (SQLite, read at the start and the end of the window; ref_load's own rate is printed beside);
  * CPU per thread of the daemon, ns-precise, from /proc/PID/task/TID/schedstat, grouped by thread
    name (digits in a name become *, so NIO-ELT-0-#0 and NIO-ELT-1-#1 are one group; "-qos.overcommit"
    and "oot.default-qos" are libdispatch workers, their names cut to 15 characters by Linux);
    CPU of threads that ended inside the window is the process total less the live threads';
  * where that CPU goes: in a second window as long, while the load goes on, perf samples the
    daemon (cpu-clock, kernel included, with call chains; sampling deep Swift stacks slows the
    daemon, so nothing above is measured while perf runs) and each sample is put in one category
    by the rules at the top of this file. A category's share of a
    thread group's samples times that group's measured CPU is its µs per action, so the categories of
    a group add up to the group's measured CPU exactly; the sampling only decides the split.

HOW TO READ THE TABLE. Every figure is µs of daemon CPU per acknowledged action (CPU in the window /
acks in the window), except the lines that say otherwise. "wall µs/action" is 1e6 / (acks/s): with
one client it is the round trip. "cores busy" is CPU / wall: with one client, 0.3 means the daemon
works 30% of the round trip and waits the rest (for fdatasync mostly, and for the client). The
device's time in fsync is waiting, not CPU: only the kernel's CPU inside fdatasync and the writes
shows, as "kernel: fsync, file I/O". Work the kernel does for the daemon on other threads
(block-device interrupts, jbd2, kworkers) is not in the daemon's CPU and not in the table. "load
generator" is the client side's CPU per action, shown so you can tell whether the load (which
shares the machine's cores) held the daemon back; it is not in the totals. Swift standard-library
code (String, Array, Dictionary, hashing, number printing) is charged to the module that called it
(so JSON's string building counts as JSON); the Swift runtime (retain/release, metadata,
allocation) and malloc/free keep rows of their own, whoever called them.
Kernel samples are classified by their kernel call chain (fdatasync, socket, futex...), user-space
ones by their leaf function. perf's sampling (1999 Hz) itself adds a little to the daemon's CPU. For
concordd the split of the categories by thread group follows the main table; --top N lists the
hottest functions with their categories, to check or refine the rules.

Needs Linux, the built concordd (scripts/bench.sh account builds it), gcc/make/libsodium/libsqlite3
for the reference, and perf (Debian linux-perf) run as root; without perf only the per-thread CPU
account is printed.
"""
import argparse
import atexit
import json
import multiprocessing
import os
import re
import selectors
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter

# ---------------------------------------------------------------------------------------------
# Classification rules: the one place to read and change. First match wins.
#
# A sample in the kernel is classified by its kernel call chain (leaf to syscall entry) joined by
# spaces, then " | " and the user-space frame that made the syscall (libc's stub: fdatasync, read,
# epoll_wait...): the leaf alone is usually a lock or a copy routine that says nothing about why.
KERNEL_RULES = [
    # NIO reads and writes only sockets, with read/write(v); SQLite uses pread64/pwrite64. A
    # sample still in vfs_read/vfs_write has not reached the socket's code yet: the syscall says.
    ("kernel: socket I/O", r"unix_|sock_|skb_|__sys_(send|recv)|\bksys_(read|write)\b|sys_(read|write|readv|writev)\b"),
    ("kernel: memory (faults, mmap)", r"exc_page_fault|handle_mm_fault"
                                      r"|sys_(mmap|munmap|madvise|mprotect|brk|mremap)\b"),
    ("kernel: fsync, file I/O", r"fsync|fdatasync|ext4_|jbd2|blk_|submit_bio|filemap_|iomap_|vfs_(read|write)"
                                r"|sys_(pwrite64|pread64|fallocate|ftruncate|openat|unlink|fcntl|flock)\b"),
    ("kernel: futex, epoll, scheduling", r"futex|schedule|sched_|epoll|ep_poll|nanosleep|sys_(poll|ppoll|select)\b"
                                         r"|try_to_wake_up|__wake_up"),
    # Left: samples in the syscall entry and exit, where only the stub tells which syscall.
    ("kernel: fsync, file I/O", r"\| (__libc_|__GI___libc_)?(pwrite|pread|_?_?fcntl|fdatasync|fsync)"),
    ("kernel: futex, epoll, scheduling", r"\| (sem_|pthread_|epoll_wait|__futex|futex)"),
    ("kernel: socket I/O", r"\| (__GI___libc_|__libc_)?(read|write|readv|writev|recvmsg|sendmsg)\b"),
    ("kernel: other", r""),
]
# A sample in user space is classified by its leaf frame: field "dso" is the library's file name,
# "sym" the symbol, "module" the Swift module a mangled symbol belongs to ("Swift" for the standard
# library), "runtime" the symbol when it is the Swift runtime's (swift_*, swift::*, or any symbol of
# libswiftCore that is not mangled Swift, i.e. the runtime's C++), else empty. Category CALLER
# charges the sample to the first caller up the chain that a rule other than CALLER claims (and to
# "Swift stdlib (caller unknown)" when the chain gives none).
CALLER = "<caller>"
USER_RULES = [
    ("SQLite", "dso", r"^libsqlite3"),
    ("libsodium (crypto)", "dso", r"^libsodium"),
    ("malloc/free", "sym", r"^(__libc_|__GI___libc_)?(malloc|free|cfree|calloc|realloc|_int_malloc|_int_free\w*"
                           r"|_int_realloc|malloc_consolidate|sysmalloc|tcache_\w+|unlink_chunk|_int_memalign"
                           r"|__libc_memalign|posix_memalign|aligned_alloc)(@.*)?$"),
    ("Swift runtime: retain/release", "runtime", r"^swift_(retain|release|bridgeObjectRetain|bridgeObjectRelease"
                                                 r"|unknownObjectRetain|unknownObjectRelease|isUniquelyReferenced\w*)"
                                                 r"(_n)?$|RefCount"),
    ("Swift runtime: metadata, generics, casts", "runtime", r"Metadata|Witness|Conform|Demangl|Mangled|TypeDecoder"
                                                            r"|Cast|once|getCache|Generic|AssociatedType|HashMap"),
    ("Swift runtime: other (alloc, exclusivity)", "runtime", r"."),
    ("JSON (ConcordJSON, Foundation JSON)", "module", r"^ConcordJSON$"),
    ("JSON (ConcordJSON, Foundation JSON)", "sym", r"^\$s(10Foundation|20FoundationEssentials)\w*JSON"),
    ("NIO", "module", r"^(NIO|_NIO)"),
    ("NIO", "sym", r"^c_nio_"),
    ("log glue (ConcordLog, GRDB)", "module", r"^(ConcordLog|GRDB|ConcordSchema)$"),
    ("app, host (ConcordServer, -App, -Wire, Concord)", "module",
     r"^(Concord\w*|concordd|SampleApp|CounterApp|CasePaths|IdentifiedCollections|OrderedCollections|DequeModule"
     r"|Logging|ServiceLifecycle)$"),
    ("ref_daemon's own code", "dso", r"^(ref_daemon|ref_load)$"),
    (CALLER, "module", r"^Swift$"),
    (CALLER, "sym", r"^_?\$s[^0-9sS]"),  # thunks (reabstraction, partial apply) of no module
    (CALLER, "dso", r"^(libswiftCore|libswift_StringProcessing|libswift_RegexParser|libswiftSynchronization)\.so"),
    ("Foundation (other)", "module", r"^Foundation(Essentials|Internationalization)?$"),
    ("Foundation (other)", "dso", r"^lib(Foundation\w*|_FoundationICU)\.so"),
    ("libdispatch, Swift concurrency", "module", r"^Dispatch$"),
    ("libdispatch, Swift concurrency", "dso", r"^lib(dispatch|swiftDispatch|swift_Concurrency|BlocksRuntime)\.so"),
    ("libc (memcpy, locks, syscall stubs)", "dso", r"^(libc\.so|libm\.so|ld-linux|\[vdso\])"),
    ("other", "dso", r""),
]
# ---------------------------------------------------------------------------------------------

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CATEGORY_ORDER = list(dict.fromkeys([c for c, _ in KERNEL_RULES] + [c for c, _, _ in USER_RULES if c != CALLER]
                                    + ["Swift stdlib (caller unknown)", "unsampled"]))
KERNEL_RES = [(c, re.compile(p)) for c, p in KERNEL_RULES]
USER_RES = [(c, f, re.compile(p)) for c, f, p in USER_RULES]
RUNTIME_RE = re.compile(r"^_{0,2}swift_|^swift::")
MODULE_RE = re.compile(r"^_?\$s(\d+)")
# Standard-library types the mangling abbreviates to S<letter>: Sa Array, SD Dictionary, SS String...
STDLIB_RE = re.compile(r"^_?\$s(s|S[a-zA-Z])")


def swift_module(sym):
    """The module a mangled Swift symbol is defined in, from its first identifier."""
    m = MODULE_RE.match(sym)
    if m:
        n = int(m.group(1))
        return sym[m.end():m.end() + n]
    return "Swift" if STDLIB_RE.match(sym) else None


def classify_user(frame):
    dso, sym = frame
    dso = os.path.basename(dso)
    runtime = RUNTIME_RE.match(sym) or (dso.startswith("libswiftCore.") and not sym.startswith(("$s", "[unknown]")))
    fields = {"dso": dso, "sym": sym, "module": swift_module(sym) or "", "runtime": sym if runtime else ""}
    for category, field, regex in USER_RES:
        if fields[field] and regex.search(fields[field]):
            return category
    return "other"


def classify(chain):
    """One sample's category from its chain of (dso, sym) frames, leaf first."""
    kernel = [sym for dso, sym in chain if dso == "[kernel.kallsyms]"]
    if kernel:
        joined = " ".join(kernel) + " | " + (chain[len(kernel)][1] if len(chain) > len(kernel) else "")
        return next(c for c, regex in KERNEL_RES if regex.search(joined))
    for frame in chain:
        category = classify_user(frame)
        if category != CALLER:
            return category
    return "Swift stdlib (caller unknown)"


# --- the daemon's threads ----------------------------------------------------------------------

def group_name(comm):
    return re.sub(r"\d+", "*", comm)


def read_threads(pid):
    """{tid: (comm, ns on CPU)} for the live threads, and the process's total CPU ns (with exited threads)."""
    threads = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/comm") as f:
                comm = f.read().strip()
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                ns = int(f.read().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            continue  # ended between listdir and open
        threads[int(tid)] = (comm, ns)
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # Fields 14 and 15 (utime, stime), counted from 1 with pid as 1: indices 11, 12 after the ")".
    total = (int(fields[11]) + int(fields[12])) * 1e9 / os.sysconf("SC_CLK_TCK")
    return threads, total


EXITED = "(threads that ended)"


def thread_cpu(before, after):
    """CPU ns per thread group between two read_threads, and tid -> group."""
    (t0, total0), (t1, total1) = before, after
    groups, names = Counter(), {}
    for tid, (comm, ns) in t1.items():
        names[tid] = group_name(comm)
        groups[names[tid]] += ns - t0.get(tid, (comm, 0))[1]
    for tid, (comm, _) in t0.items():
        names.setdefault(tid, EXITED)
    # The process total is in clock ticks (10 ms): count the rest as ended threads only when it is
    # more than tick noise.
    rest = (total1 - total0) - sum(groups.values())
    if rest > max(0.03 * (total1 - total0), 3e7):
        groups[EXITED] += rest
    return groups, names


# --- perf ---------------------------------------------------------------------------------------

def perf_works(directory):
    out = os.path.join(directory, "check.data")
    try:
        r = subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-o", out, "--", "true"],
                           capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        return str(e)
    return None if r.returncode == 0 else (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[-1]


def perf_samples(path):
    """Counter of (tid, category, leaf symbol) over a perf.data recorded with -g."""
    text = subprocess.run(["perf", "script", "-i", path, "-F", "tid,ip,sym,dso"],
                          capture_output=True, text=True, errors="replace").stdout
    counts = Counter()
    for block in text.split("\n\n"):
        lines = block.strip("\n").split("\n")
        if not lines or not lines[0].strip():
            continue
        tid = int(lines[0].split()[0])
        chain = []
        for line in lines[1:]:
            # "    addr symbol+off (dso)"; the symbol may hold spaces (C++ templates).
            m = re.match(r"\s*[0-9a-f]+ (.*) \((.*)\)$", line)
            if m:
                chain.append((m.group(2), re.sub(r"\+0x[0-9a-f]+$|@plt$", "", m.group(1))))
        if chain:
            counts[tid, classify(chain), chain[0][1]] += 1
    return counts


# --- children and clean-up ----------------------------------------------------------------------

children = []  # Popen and multiprocessing.Process objects we started, ended at exit


def spawn(argv, log_path, **kw):
    # A session of its own: Ctrl-C reaches only us, and we stop the children in order.
    with open(log_path, "ab") as log:
        p = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, **kw)
    children.append(p)
    return p


def stop(p, timeout=10):
    if isinstance(p, multiprocessing.Process):
        if p.is_alive():
            p.terminate()
        p.join(timeout)
        return
    if p.poll() is None:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def stop_all():
    while children:
        stop(children.pop())


def wait_for(path, process, what, timeout=30):
    deadline = time.monotonic() + timeout
    while not os.path.exists(path):
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"account: {what} did not start (exit {process.poll()}); see its log")
        time.sleep(0.05)


# --- concordd's load ----------------------------------------------------------------------------

def receive(c):
    """The complete lines one recv brings on connection c."""
    data = c["sock"].recv(65536)
    if not data:
        raise SystemExit("account: concordd closed a connection")
    *lines, c["buf"] = (c["buf"] + data).split(b"\n")
    return lines


def drive(path, ids, pipe):
    """One load process: a selector over its connections, each with one action outstanding.
    Counts the acks that arrive inside [t0, t1) and its own CPU over that window, and goes on
    until t2 (while perf samples the daemon)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent ends us
    conns = []
    for cid in ids:
        c = {"sock": socket.socket(socket.AF_UNIX), "id": cid.encode(), "cseq": 0, "buf": b""}
        c["sock"].connect(path)
        for hello, want in ((b'{"type":"hello","protocol":1}\n', "welcome"),
                            (b'{"type":"attach","scope":"counter"}\n', "snapshot")):
            c["sock"].sendall(hello)
            while want not in [json.loads(line).get("type") for line in receive(c)]:
                pass
        conns.append(c)
    pipe.send("ready")
    t0, t1, t2 = pipe.recv()
    sel = selectors.DefaultSelector()

    def send_next(c):
        c["cseq"] += 1
        c["sock"].sendall(b'{"type":"send","scope":"counter","client":"%s","cseq":%d,"action":{"increment":{}}}\n'
                          % (c["id"], c["cseq"]))

    for c in conns:
        sel.register(c["sock"], selectors.EVENT_READ, c)
        send_next(c)
    acks = refused = 0
    cpu0 = cpu1 = None
    while (now := time.monotonic()) < t2:
        if cpu0 is None and now >= t0:
            cpu0 = time.process_time()
        if cpu1 is None and now >= t1:
            cpu1 = time.process_time()
        for key, _ in sel.select(timeout=t2 - now):
            c = key.data
            lines = receive(c)
            now = time.monotonic()
            for line in lines:
                # Every commit sends each attached window an update: skip them without parsing.
                if line.endswith(b'"type":"update"}'):
                    continue
                m = json.loads(line)
                kind = m.get("type")
                if kind == "ping":
                    c["sock"].sendall(b'{"type":"pong"}\n')
                elif kind in ("ack", "refused") and m.get("cseq") == c["cseq"]:
                    if t0 <= now < t1:
                        acks += kind == "ack"
                        refused += kind == "refused"
                    send_next(c)
                elif kind == "error":
                    raise SystemExit(f"account: concordd answered {m}")
    pipe.send((acks, refused, (cpu1 or time.process_time()) - (cpu0 or time.process_time())))


def run_concordd(binary, clients, args, work):
    home = tempfile.mkdtemp(prefix="home-", dir=work)  # mode 0700
    daemon = spawn([binary, "--home", home, "--app", "sample", "--log-level", "error"],
                   os.path.join(work, f"concordd-c{clients}.log"))
    wait_for(os.path.join(home, "concordd.sock"), daemon, "concordd")
    # One load process per core at most: more would only add context switches on a small machine.
    nproc = min(clients, os.cpu_count() or 1)
    pipes, procs = [], []
    for k in range(nproc):
        ids = [f"acct-{i}" for i in range(k, clients, nproc)]
        ours, theirs = multiprocessing.Pipe()
        p = multiprocessing.Process(target=drive, args=(os.path.join(home, "concordd.sock"), ids, theirs), daemon=True)
        p.start()
        theirs.close()  # so that a load process's death reads as EOF here
        children.append(p)
        pipes.append(ours)
        procs.append(p)
    for pipe in pipes:
        if not pipe.poll(30) or pipe.recv() != "ready":
            raise SystemExit("account: the load did not connect to concordd")
    t0 = time.monotonic() + args.warmup
    t1 = t0 + args.seconds
    for pipe in pipes:
        pipe.send((t0, t1, t1 + args.seconds))
    figures = measure(daemon.pid, f"concordd-c{clients}", t0, t1, args, work)
    acks = refused = cpu = 0
    for pipe in pipes:
        if not pipe.poll(30):
            raise SystemExit("account: a load process did not report")
        a, r, c = pipe.recv()
        acks, refused, cpu = acks + a, refused + r, cpu + c
    for p in procs:
        stop(p)
        children.remove(p)
    stop(daemon)
    children.remove(daemon)
    if refused:
        print(f"account: concordd refused {refused} actions in the window (not counted as acks)", file=sys.stderr)
    return finish(figures, acks, args.seconds, cpu * 1e9, {"refused": refused})


# --- the C reference ----------------------------------------------------------------------------

def build_ref(args, work):
    # Benchmarks/Reference, built with the system's C compiler.
    build = os.path.join(work, "reference")
    subprocess.run([os.path.join(REPO, "scripts", "build-reference.sh"), build], check=True, stdout=subprocess.DEVNULL)
    return build


def run_ref(build, clients, args, work):
    sock, db = os.path.join(work, "ref.sock"), os.path.join(work, f"ref-c{clients}.sqlite")
    daemon = spawn([os.path.join(build, "ref_daemon"), sock, db, "FULL"], os.path.join(work, f"ref-c{clients}.log"))
    wait_for(sock, daemon, "ref_daemon")
    log = sqlite3.connect(db, timeout=10)

    def logged():
        return log.execute("SELECT max(seq) FROM log").fetchone()[0] or 0

    # ref_load measures from 0.5 s after its start: make it run past our windows' end too. The
    # payload is Anchors.swift's: 200-byte actions.
    start = time.monotonic()
    load_log = os.path.join(work, f"ref_load-c{clients}.log")
    load = spawn([os.path.join(build, "ref_load"), sock, str(clients),
                  "%.2f" % (args.warmup + 2 * args.seconds), "200"], load_log)
    t0 = start + args.warmup
    t1 = t0 + args.seconds
    figures = measure(daemon.pid, f"ref-c{clients}", t0, t1, args, work,
                      probe=lambda: (logged(), sum(ns for _, ns in read_threads(load.pid)[0].values())))
    (acks0, load0), (acks1, load1) = figures[2]
    load.wait()
    children.remove(load)
    log.close()
    stop(daemon)
    children.remove(daemon)
    with open(load_log) as f:
        line = f.read()
    m = dict(re.findall(r"(\w+)=([\d.]+)", line))
    extra = {"ref_load_rt_per_s": float(m.get("rt_per_s", "nan")), "ref_load_p50_us": float(m.get("p50", "nan")),
             "ref_load_p99_us": float(m.get("p99", "nan"))}
    return finish(figures, acks1 - acks0, args.seconds, load1 - load0, extra)


# --- one measured window ------------------------------------------------------------------------

def sleep_until(t):
    while (d := t - time.monotonic()) > 0:
        time.sleep(d)


def measure(pid, name, t0, t1, args, work, probe=lambda: None):
    """Thread CPU of pid over [t0, t1) and what probe() returns at t0 and at t1; then perf's samples
    over a second window as long, [t1, 2 t1 - t0), while the load goes on.

    Two windows, because sampling with call chains slows the daemon it samples: at 1999 Hz it
    added about 45% to concordd's CPU per action (its stacks are deep) and halved its acks/s with
    one client. The CPU and the acks are measured unsampled; perf only decides the split."""
    sleep_until(t0)
    before, probed = read_threads(pid), [probe()]
    sleep_until(t1)
    after = read_threads(pid)
    probed.append(probe())
    t2 = t1 + (t1 - t0)
    perf = None
    if args.perf:
        data, perf_log = os.path.join(work, f"{name}.perf.data"), os.path.join(work, f"{name}.perf.log")
        # Not --per-thread: that stops perf following threads started after it attached (libdispatch
        # starts workers on demand). Samples still carry their thread id.
        perf = spawn(["perf", "record", "-q", "-e", "cpu-clock", "-F", str(args.frequency), "-g",
                      "-p", str(pid), "-o", data, "--", "sleep", "%.3f" % (t2 - time.monotonic())],
                     perf_log)
    sleep_until(t2)
    sampled = read_threads(pid)
    groups, names = thread_cpu(before, after)
    names = {**thread_cpu(after, sampled)[1], **names}
    samples = None
    if perf:
        code = perf.wait()
        children.remove(perf)
        samples = Counter()
        if code != 0:
            print(f"account: perf failed on {name} (keep its log with --keep); its CPU is left unsampled")
        else:
            for (tid, category, sym), n in perf_samples(data).items():
                samples[names.get(tid, EXITED), category, sym] += n
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            for path in (data, perf_log):
                if os.path.exists(path):
                    shutil.copy(path, args.keep)
    return groups, samples, probed


def finish(figures, acks, seconds, load_cpu_ns, extra):
    """Per-action figures of one run: {group: {category: µs}} and the totals."""
    groups, samples, _ = figures
    acks = max(acks, 1)
    split, symbols = {}, Counter()
    for group, ns in groups.items():
        split[group] = Counter()
        if samples is None:
            continue
        mine = {(c, sym): n for (g, c, sym), n in samples.items() if g == group}
        if not mine:
            split[group]["unsampled"] = ns / 1e3 / acks
        for (c, sym), n in mine.items():
            # A sample of this group stands for (group CPU / group samples) of CPU.
            us = ns / 1e3 / acks * n / sum(mine.values())
            split[group][c] += us
            symbols[f"{c} | {sym}"] += us
    cpu = sum(groups.values()) / 1e3 / acks
    return dict(acks=acks, acks_per_s=acks / seconds, wall_us=seconds * 1e6 / acks, cpu_us=cpu,
                cores_busy=cpu / (seconds * 1e6 / acks), load_cpu_us=load_cpu_ns / 1e3 / acks,
                groups={g: ns / 1e3 / acks for g, ns in sorted(groups.items(), key=lambda kv: -kv[1])},
                split=split, samples=sum(samples.values()) if samples else 0,
                top_symbols=dict(symbols.most_common(40)), **extra)


# --- the report ---------------------------------------------------------------------------------

def report(runs, perf_ok, top):
    cols = list(runs)
    width = max(len(c) for c in CATEGORY_ORDER) + 4
    rule = "-" * (width + 13 * len(cols))

    def row(label, values, fmt="{:>13.1f}"):
        print(label.ljust(width) + "".join(" " * 12 + "-" if v is None else fmt.format(v) for v in values))

    print()
    print("µs of daemon CPU per acknowledged action".ljust(width) + "".join(f"{c:>13}" for c in cols))
    print(rule)
    if perf_ok:
        for category in CATEGORY_ORDER:
            values = [sum(s.get(category, 0) for s in runs[c]["split"].values()) for c in cols]
            if any(v >= 0.05 for v in values):
                row("  " + category, values)
        print(rule)
    groups = list(dict.fromkeys(g for c in cols for g, us in runs[c]["groups"].items() if us >= 0.05))
    for g in groups:
        row("  thread " + g, [runs[c]["groups"].get(g) for c in cols])
    row("CPU total", [runs[c]["cpu_us"] for c in cols])
    row("wall µs/action (1e6 / acks per s)", [runs[c]["wall_us"] for c in cols])
    row("cores busy (CPU / wall)", [runs[c]["cores_busy"] for c in cols], "{:>13.2f}")
    row("acks/s", [runs[c]["acks_per_s"] for c in cols], "{:>13.0f}")
    row("acks/s by ref_load (its own window)", [runs[c].get("ref_load_rt_per_s") for c in cols], "{:>13.0f}")
    row("load generator CPU µs/action (not above)", [runs[c]["load_cpu_us"] for c in cols])
    if perf_ok:
        row("perf samples", [runs[c]["samples"] for c in cols], "{:>13.0f}")
    if not perf_ok:
        return
    # The split by thread group, where there is more than one.
    for c in cols:
        gs = [g for g, us in runs[c]["groups"].items() if us >= 0.05]
        if len(gs) < 2:
            continue
        print()
        print(f"{c}: by thread group".ljust(width) + "".join(f"{g[:16]:>17}" for g in gs))
        for category in CATEGORY_ORDER:
            values = [runs[c]["split"][g].get(category, 0) for g in gs]
            if any(v >= 0.05 for v in values):
                print(("  " + category).ljust(width) + "".join(f"{v:>17.1f}" for v in values))
    for c in cols if top else []:
        print(f"\n{c}: the {top} hottest leaf symbols, µs/action (category | symbol)")
        for name, us in list(runs[c]["top_symbols"].items())[:top]:
            print(f"{us:>8.1f}  {name[:150]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10, help="measured window per run (default 10)")
    parser.add_argument("--warmup", type=float, default=2, help="uncounted load before each window (default 2)")
    parser.add_argument("--clients", default="1,16", help="connection counts, comma-separated (default 1,16)")
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON to PATH")
    parser.add_argument("--keep", metavar="DIR", help="keep the perf.data files in DIR")
    parser.add_argument("--concordd", default=os.path.join(REPO, ".build/release/concordd"),
                        help="the concordd binary (default .build/release/concordd; it is copied first)")
    parser.add_argument("--only", choices=["concordd", "ref"], help="measure one daemon only")
    parser.add_argument("--top", type=int, default=0, metavar="N", help="also list each run's N hottest leaf symbols")
    parser.add_argument("--frequency", type=int, default=1999, help="perf samples per second per thread (default 1999)")
    args = parser.parse_args()
    clients = [int(n) for n in args.clients.split(",")]

    # SIGTERM ends us as Ctrl-C does: through the finally below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    work = tempfile.mkdtemp(prefix="concord-account-")
    atexit.register(shutil.rmtree, work, True)
    atexit.register(stop_all)  # runs first: stop the children before removing their files
    try:
        problem = perf_works(work)
        args.perf = problem is None
        if problem:
            print(f"account: perf cannot sample here ({problem}); printing the per-thread CPU account only")
        binary = None
        if args.only != "ref":
            if not os.path.exists(args.concordd):
                sys.exit(f"account: no {args.concordd}: build it (scripts/bench.sh account does), or pass --concordd")
            binary = os.path.join(work, "concordd")
            shutil.copy(args.concordd, binary)  # a rebuild during the run must not change what we measure
        build = build_ref(args, work) if args.only != "concordd" else None
        runs = {}
        for n in clients:
            label = f"{n} client" + ("s" if n > 1 else "")
            if binary:
                print(f"account: concordd, {label}, {args.warmup:g} s + {args.seconds:g} s + {args.seconds:g} s sampled ...", flush=True)
                runs[f"concordd c{n}"] = run_concordd(binary, n, args, work)
            if build:
                print(f"account: C ref, {label}, {args.warmup:g} s + {args.seconds:g} s + {args.seconds:g} s sampled ...", flush=True)
                runs[f"C ref c{n}"] = run_ref(build, n, args, work)
        report(runs, args.perf, args.top)
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"seconds": args.seconds, "warmup": args.warmup, "perf": args.perf, "runs": runs,
                           "kernel_rules": KERNEL_RULES, "user_rules": USER_RULES}, f, indent=2)
    except KeyboardInterrupt:
        sys.exit(130)
    except EOFError:
        sys.exit("account: a load process ended early (see above)")
    finally:
        stop_all()


if __name__ == "__main__":
    main()
