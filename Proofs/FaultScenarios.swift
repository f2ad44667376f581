import ConcordLog
import ConcordPlatform
import ConcordWire
import DaemonDriving
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The faults of the fault suite, in the order they run.
enum FaultScenarios {
  static let all: [FaultScenario] = [
    diskFull, readOnlyLog, walDeletedAfterCleanStop, walDeletedAfterCrash, corruptSnapshot, corruptTailEntry,
    corruptOldEntry, wrongKey, missingKey, openKeyFile, homeOwnedByAnother, clockSteppedBack,
  ]

  static let diskFull = FaultScenario(
    name: "disk full during a commit",
    expected: "nothing more acknowledged, the daemon stops saying why; all acknowledged kept once space is back"
  ) { bench in
    // A 2 MiB filesystem of its own, grown again afterwards.
    let mount = bench.home.appending(path: "small-disk")
    try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
    guard (try? runToEnd("/bin/mount", ["-t", "tmpfs", "-o", "size=2m,mode=0700", "tmpfs", mount.path])) != nil else {
      return .skipped("mounting a small filesystem needs root")
    }
    defer { _ = try? runToEnd("/bin/umount", ["-l", mount.path]) }
    let home = try FaultBench(work: mount, name: "home", outputs: bench.work)
    let daemon = try home.start()
    let acknowledged = home.increment(100_000, socket: daemon.socketPath)
    daemon.child.process.waitUntilExit()
    let stoppedWith = daemon.child.output.split(separator: "\n").last.map(String.init) ?? ""
    _ = try runToEnd("/bin/mount", ["-o", "remount,size=64m", mount.path])
    let inspection = try LogInspection(home: home.home)
    let kept = acknowledged.filter { inspection.appearances[.init(client: "fault", cseq: $0)] == 1 }.count
    let counter = try home.counterAfterRestart()
    return .init(
      observed: "\(acknowledged.count) acknowledged, then stopped (status \(daemon.child.process.terminationStatus)): \"\(stoppedWith.suffix(120))\"; "
        + "with space again: \(kept) of them in the log once, counter \(counter), verify \(inspection.verification == nil ? "passes" : "FAILS")",
      held: daemon.child.process.terminationStatus != 0 && stoppedWith.contains("disk is full") && kept == acknowledged.count
        && counter == Int64(acknowledged.count) && inspection.verification == nil)
  }

  static let readOnlyLog = FaultScenario(
    name: "the log made read-only",
    expected: "the daemon refuses to start and says the log cannot be written; nothing lost"
  ) { bench in
    let acknowledged = try bench.seed(20)
    // Root ignores file modes: the immutable attribute stops even root from writing.
    guard (try? runToEnd("/usr/bin/chattr", ["+i", bench.log.path])) != nil else {
      return .skipped("chattr +i needs root on ext4")
    }
    let refusal = try bench.startExpectingRefusal()
    _ = try runToEnd("/usr/bin/chattr", ["-i", bench.log.path])
    let counter = try bench.counterAfterRestart()
    return .init(
      observed: refusal.map { "refused (status \($0.status)): \"\($0.message.suffix(140))\"; writable again: counter \(counter)" }
        ?? "it started on a log it cannot write",
      held: refusal != nil && counter == Int64(acknowledged.count))
  }

  static let walDeletedAfterCleanStop = FaultScenario(
    name: "the WAL deleted after a clean stop",
    expected: "a correct recovery: every acknowledged action is there"
  ) { bench in
    let acknowledged = try bench.seed(300)
    // A clean stop is meant to leave no WAL at all (close() moves it into the database): then
    // the database file alone must give every acknowledged action back. A WAL left behind is
    // deleted, and must have held nothing the database lacks.
    let removed = ["-wal", "-shm"].filter { (try? FileManager.default.removeItem(atPath: bench.log.path + $0)) != nil }
    let counter = try bench.counterAfterRestart()
    let inspection = try LogInspection(home: bench.home)
    return .init(
      observed: "\(removed.isEmpty ? "no WAL was left: the database file alone" : "removed " + removed.joined(separator: ", ")); counter \(counter) of \(acknowledged.count) acknowledged; verify \(inspection.verification == nil ? "passes" : "FAILS")",
      held: counter == Int64(acknowledged.count) && inspection.verification == nil)
  }

  static let walDeletedAfterCrash = FaultScenario(
    name: "the WAL deleted after kill -9",
    expected: "the daemon refuses to start: the checkpoint file vouches for entries the log lost"
  ) { bench in
    // Past the first signed checkpoint, which the WAL also holds.
    let acknowledged = try bench.seed(Int(CrashSuite.checkpointInterval) + 76, crash: true)
    for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: bench.log.path + suffix) }
    guard let refusal = try bench.startExpectingRefusal() else {
      let counter = try bench.counterAfterRestart()
      return .init(
        observed: "started with counter \(counter) of \(acknowledged.count) acknowledged",
        held: counter == Int64(acknowledged.count))
    }
    return .init(
      observed: "\(acknowledged.count) acknowledged; refused (status \(refusal.status)): \"\(refusal.message.suffix(160))\"",
      held: refusal.message.contains("truncated tail"))
  }

  static let corruptSnapshot = FaultScenario(
    name: "a corrupt snapshot",
    expected: "the boot skips it, falls back to an older one, and reaches the same state"
  ) { bench in
    let acknowledged = try bench.seed(180, ["--snapshot-interval", "50"])
    let corrupted = try LogSurgery.corruptNewestSnapshot(of: bench.log)
    let restarted = try bench.start(["--snapshot-interval", "50"])
    let counter = try bench.counter(restarted)
    restarted.stop()
    let skipped = restarted.child.output.split(separator: "\n").first { $0.contains("skipped") }.map(String.init) ?? ""
    return .init(
      observed: "snapshot at \(corrupted) corrupted; counter \(counter) of \(acknowledged.count); said \"\(skipped.suffix(110))\"",
      held: counter == Int64(acknowledged.count) && !skipped.isEmpty)
  }

  static let corruptTailEntry = FaultScenario(
    name: "a corrupt entry after the last snapshot",
    expected: "the daemon refuses to start, naming the entry; concord verify names it too"
  ) { bench in
    _ = try bench.seed(40, ["--snapshot-interval", "1000"])
    let seq: Int64 = 30
    try LogSurgery.corruptEntry(seq, of: bench.log)
    let refusal = try bench.startExpectingRefusal(["--snapshot-interval", "1000"])
    let verify = try bench.verify(naming: seq)
    return .init(
      observed: (refusal.map { "refused: \"\($0.message.suffix(110))\"" } ?? "STARTED")
        + "; concord verify (status \(verify.status)): \"\(verify.line.suffix(100))\"",
      held: refusal?.message.contains("entry \(seq)") == true && verify.status != 0 && verify.line.contains("seq \(seq):"))
  }

  static let corruptOldEntry = FaultScenario(
    name: "a corrupt entry before the newest snapshot",
    expected: "the state is rebuilt from the verified snapshot; concord verify names the entry"
  ) { bench in
    let acknowledged = try bench.seed(120, ["--snapshot-interval", "50"])
    let seq: Int64 = 20
    try LogSurgery.corruptEntry(seq, of: bench.log)
    let counter = try? bench.counterAfterRestart(["--snapshot-interval", "50"])
    let verify = try bench.verify(naming: seq)
    return .init(
      observed: (counter.map { "started, counter \($0) of \(acknowledged.count)" } ?? "refused to start")
        + "; concord verify (status \(verify.status)): \"\(verify.line.suffix(100))\"",
      held: counter == Int64(acknowledged.count) && verify.status != 0 && verify.line.contains("seq \(seq):"))
  }

  static let wrongKey = FaultScenario(
    name: "a wrong key",
    expected: "refused at start: \"wrong key for log PATH\"; the log untouched"
  ) { bench in
    let acknowledged = try bench.seed(10)
    let other = try FaultBench(work: bench.work, name: "other-key")
    try other.start().stop()
    try FileManager.default.moveItem(at: bench.key, to: bench.home.appending(path: "key.right"))
    try FileManager.default.copyItem(at: other.key, to: bench.key)
    let refusal = try bench.startExpectingRefusal()
    try FileManager.default.removeItem(at: bench.key)
    try FileManager.default.moveItem(at: bench.home.appending(path: "key.right"), to: bench.key)
    let counter = try bench.counterAfterRestart()
    return .init(
      observed: (refusal.map { "refused: \"\($0.message.suffix(110))\"" } ?? "STARTED") + "; right key again: counter \(counter)",
      held: refusal?.message.contains("wrong key for log") == true && counter == Int64(acknowledged.count))
  }

  static let missingKey = FaultScenario(
    name: "a missing key file",
    expected: "refused at start, saying the key is missing; no new key made over the log"
  ) { bench in
    let acknowledged = try bench.seed(10)
    try FileManager.default.moveItem(at: bench.key, to: bench.home.appending(path: "key.kept"))
    let refusal = try bench.startExpectingRefusal()
    let madeNewKey = FileManager.default.fileExists(atPath: bench.key.path)
    try? FileManager.default.removeItem(at: bench.key)
    try FileManager.default.moveItem(at: bench.home.appending(path: "key.kept"), to: bench.key)
    let counter = try bench.counterAfterRestart()
    return .init(
      observed: (refusal.map { "refused: \"\($0.message.suffix(120))\"" } ?? "STARTED")
        + (madeNewKey ? "; a new key file was left behind" : "") + "; key back: counter \(counter)",
      held: refusal != nil && !madeNewKey && counter == Int64(acknowledged.count))
  }

  static let openKeyFile = FaultScenario(
    name: "a key file others can read",
    expected: "refused at start, naming the file and its mode, like ssh"
  ) { bench in
    try bench.start().stop()
    chmod(bench.key.path, 0o644)
    let refusal = try bench.startExpectingRefusal()
    return .init(
      observed: refusal.map { "refused: \"\($0.message.suffix(130))\"" } ?? "STARTED",
      held: refusal?.message.contains(bench.key.path) == true)
  }

  static let homeOwnedByAnother = FaultScenario(
    name: "a socket directory owned by another account",
    expected: "refused at start: no socket is put in a directory someone else controls"
  ) { bench in
    guard chown(bench.home.path, 65534, 65534) == 0 else {
      return .skipped("changing the owner needs root")
    }
    let refusal = try bench.startExpectingRefusal()
    let socketMade = FileManager.default.fileExists(atPath: ConcordHome(bench.home).socket.path)
    return .init(
      observed: (refusal.map { "refused: \"\($0.message.suffix(130))\"" } ?? "STARTED") + (socketMade ? "; a socket was made" : ""),
      held: refusal?.message.contains("uid 65534") == true && !socketMade)
  }

  static let clockSteppedBack = FaultScenario(
    name: "the clock stepped back an hour",
    expected: "actions keep being taken; the log's times never go back; verify passes"
  ) { bench in
    let clock = try FakeClock(in: bench.work)
    let daemon = try bench.start(environment: clock.environment)
    var acknowledged = try bench.incrementAll(10, socket: daemon.socketPath)
    try clock.set(offset: -3600)
    acknowledged += try bench.incrementAll(10, socket: daemon.socketPath, from: 11)
    daemon.stop()
    let restarted = try bench.start(environment: clock.environment)
    acknowledged += try bench.incrementAll(10, socket: restarted.socketPath, from: 21)
    let counter = try bench.counter(restarted)
    restarted.stop()
    let times = try LogTimes(home: bench.home)
    return .init(
      observed: "\(acknowledged.count) of 30 acknowledged, counter \(counter); times going back in the log: \(times.steppedBack); verify \(times.verifies ? "passes" : "FAILS")",
      held: counter == 30 && times.steppedBack == 0 && times.verifies)
  }
}
