import ConcordLog
import ConcordReplay
import ConcordWire
import DaemonDriving
import Foundation
import SampleApp
import Testing

@testable import ConcordServer

#if canImport(Glibc)
import Glibc
#endif

/// `concord` as people and scripts use it, against the real daemon.
@Suite(.serialized) struct CommandLineTests {
  @Test func twoJSONWindowsSeeEachOthersActions() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    let alice = try RunningCLI(["attach", "counter", "--json"], home: daemon.home)
    let bob = try RunningCLI(["attach", "counter", "--json"], home: daemon.home)
    // Each window starts from the counter's state: a snapshot, or — when the other window
    // already saw it and left it in the shared outbox — the (empty) changes since then.
    try alice.readLine(containing: #""scope":"counter""#, #""seq":"#)
    try bob.readLine(containing: #""scope":"counter""#, #""seq":"#)

    alice.send(#"{"add":{"amount":5}}"#)
    try bob.readLine(containing: #""type":"update""#, #""reset":5"#)
    bob.send("inc")  // the scope's own words work too
    try alice.readLine(containing: #""type":"update""#, #""reset":6"#)
    try bob.readLine(containing: #""type":"ack""#)
  }

  @Test func anActionSentWhileTheDaemonIsDownIsQueuedAndAppliedOnceBySync() throws {
    let home = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let queued = try ConcordCLI.run(["send", "counter", "dec"], home: home)  // refused when resent: at zero
    #expect(queued.status == 3)
    #expect(queued.output.contains("1 action waiting"))
    try ConcordCLI.run(["send", "counter", #"{"add":{"amount":2}}"#], home: home)
    try ConcordCLI.run(["send", "note:9", "toggle"], home: home)  // there is no note 9
    let list = try ConcordCLI.run(["outbox", "list"], home: home)
    #expect(list.output.split(separator: "\n").count == 3)

    let daemon = try DaemonUnderTest(home: home).start()
    defer { _ = daemon.terminate() }
    let sync = try ConcordCLI.run(["outbox", "sync"], home: home)
    #expect(sync.status == 0, "\(sync.error)")
    #expect(sync.output.contains("refused: the counter is already at zero"))
    #expect(sync.output.contains("refused: note:9 names nothing in the state"))
    #expect(sync.output.contains("synced: 1 applied, 2 refused"))
    #expect(try ConcordCLI.run(["outbox", "list"], home: home).output.contains("empty"))
    // Nothing is applied twice by a second sync.
    #expect(try ConcordCLI.run(["outbox", "sync"], home: home).output.contains("synced: 0 applied"))
    let state = try ConcordCLI.run(["state", "counter"], home: home)
    #expect(state.output.trimmingCharacters(in: .whitespacesAndNewlines) == "2")
  }

  @Test func aSyncKilledHalfwayAndRunAgainAppliesEveryActionExactlyOnce() throws {
    let home = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let count = 300
    let input = (0..<count).map { _ in #"{"increment":{}}"# }.joined(separator: "\n") + "\n"
    // Offline, a script's window queues every action it reads.
    let offline = try ConcordCLI.run(["attach", "counter", "--json"], home: home, input: input)
    #expect(offline.status == 3)
    #expect(try ConcordCLI.run(["outbox", "list"], home: home).output.split(separator: "\n").count == count)

    let daemon = try DaemonUnderTest(home: home).start()
    defer { _ = daemon.terminate() }
    let interrupted = Process()
    interrupted.executableURL = ConcordCLI.binary
    interrupted.arguments = ["outbox", "sync"]
    interrupted.environment = ["CONCORD_HOME": home.path, "CONCORD_APP": "sample"]
    interrupted.standardOutput = FileHandle.nullDevice
    try interrupted.run()
    usleep(150_000)
    kill(interrupted.processIdentifier, SIGKILL)
    interrupted.waitUntilExit()
    let left = try ConcordCLI.run(["outbox", "list"], home: home).output
    let remaining = left.contains("empty") ? 0 : left.split(separator: "\n").count
    #expect(remaining > 0 && remaining < count, "the kill should land mid-sync; \(remaining) left")

    let rerun = try ConcordCLI.run(["outbox", "sync"], home: home)
    #expect(rerun.status == 0, "\(rerun.error)")
    let state = try ConcordCLI.run(["state", "counter"], home: home)
    #expect(state.output.trimmingCharacters(in: .whitespacesAndNewlines) == "\(count)")
  }

  /// Windows and commands started together on a new home all open its outbox.
  @Test func commandsStartedTogetherOnANewHomeShareItsOutbox() throws {
    for _ in 0..<3 {
      let home = DaemonUnderTest.makeHome()
      defer { try? FileManager.default.removeItem(at: home) }
      let processes = try (0..<8).map { _ in
        let process = Process()
        process.executableURL = ConcordCLI.binary
        process.arguments = ["outbox", "list"]
        process.environment = ConcordCLI.environment(home: home, app: "sample")
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
      }
      for process in processes { process.waitUntilExit() }
      #expect(processes.map(\.terminationStatus) == Array(repeating: 0, count: 8))
    }
  }

  @Test func theOutboxKeepsNothingReadableAndAnotherKeyCannotOpenIt() throws {
    let home = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: home) }
    #expect(try ConcordCLI.run(["send", "notes", "add zebra-crossing-17"], home: home).status == 3)
    let outbox = home.appending(path: "outbox.sqlite").path
    let attributes = try FileManager.default.attributesOfItem(atPath: outbox)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    for file in [outbox, outbox + "-wal"] {
      guard let bytes = FileManager.default.contents(atPath: file) else { continue }
      #expect(bytes.range(of: Data("zebra-crossing".utf8)) == nil, "\(file) holds the action in the clear")
      #expect(bytes.range(of: Data("notes".utf8)) == nil, "\(file) names the scope in the clear")
    }

    // Another key (the right size, mode 0600) opens nothing, and says so.
    let key = home.appending(path: "key")
    try FileManager.default.removeItem(at: key)
    _ = FileManager.default.createFile(
      atPath: key.path, contents: Data((0..<32).map { UInt8($0) }), attributes: [.posixPermissions: 0o600])
    let list = try ConcordCLI.run(["outbox", "list"], home: home)
    #expect(list.status == 1)
    #expect(list.error.contains("does not open with this key"), "\(list.error)")
    // A window with the daemon up ends with the same reason, rather than reconnecting forever.
    let daemon = try DaemonUnderTest(home: home).start()
    defer { _ = daemon.terminate() }
    let window = try ConcordCLI.run(["attach", "notes", "--json"], home: home)
    #expect(window.status == 1)
    #expect(window.error.contains("does not open with this key"), "\(window.error)")
  }

  @Test func aReplacedLogKeepsTheOutboxUntilThePersonDecides() throws {
    let home = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: home) }
    var daemon = try DaemonUnderTest(home: home).start()
    #expect(try ConcordCLI.run(["send", "counter", "inc"], home: home).status == 0)
    #expect(daemon.terminate() == 0)
    #expect(try ConcordCLI.run(["send", "counter", "add 5"], home: home).status == 3)

    // The daemon's history is replaced: a new log (same key) with a new id.
    for suffix in ["", "-wal", "-shm", ".pub", ".checkpoint"] {
      try? FileManager.default.removeItem(at: home.appending(path: "log.sqlite" + suffix))
    }
    daemon = try DaemonUnderTest(home: home).start()
    defer { _ = daemon.terminate() }
    let refused = try ConcordCLI.run(["outbox", "sync"], home: home)
    #expect(refused.status == 1)
    #expect(refused.error.contains("is not the one this outbox last synced with"), "\(refused.error)")
    #expect(try ConcordCLI.run(["outbox", "list"], home: home).output.contains("add"))
    let forced = try ConcordCLI.run(["outbox", "sync", "--force"], home: home)
    #expect(forced.status == 0, "\(forced.error)")
    #expect(try ConcordCLI.run(["state", "counter"], home: home).output.hasPrefix("5"))
  }

  @Test func theDaemonStartsInTheBackgroundReportsItsWindowsAndStops() throws {
    let home = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let notRunning = try ConcordCLI.run(["daemon", "status"], home: home)
    #expect(notRunning.status == 3)
    #expect(notRunning.error.contains("concord daemon start"))
    let started = try ConcordCLI.run(["daemon", "start"], home: home)
    #expect(started.status == 0, "\(started.error)")
    #expect(started.output.contains("started (pid"))
    let window = try RunningCLI(["attach", "counter", "--json"], home: home)
    try window.readLine(containing: #""scope":"counter""#)
    let status = try ConcordCLI.run(["daemon", "status"], home: home)
    #expect(status.output.contains("running: pid"))
    #expect(status.output.contains("counter\t1 window"), "\(status.output)")
    window.stop()
    let stopped = try ConcordCLI.run(["daemon", "stop"], home: home)
    #expect(stopped.output.contains("stopped"))
    #expect(!FileManager.default.fileExists(atPath: home.appending(path: "concordd.sock").path))

    // The pid file stays behind; a process that took the same pid later is not the daemon.
    let bystander = Process()
    bystander.executableURL = URL(filePath: "/bin/sleep")
    bystander.arguments = ["30"]
    try bystander.run()
    defer { bystander.terminate() }
    try "\(bystander.processIdentifier)\n".write(to: home.appending(path: "concordd.pid"), atomically: false, encoding: .utf8)
    let again = try ConcordCLI.run(["daemon", "stop"], home: home)
    #expect(again.output.contains("not running"), "\(again.output)")
    usleep(100_000)
    #expect(bystander.isRunning)

    // A second start adds to the daemon's log: the first run's lines are still there.
    let log = home.appending(path: "concordd.log")
    let firstRun = try String(contentsOf: log, encoding: .utf8)
    #expect(!firstRun.isEmpty)
    #expect(try ConcordCLI.run(["daemon", "start"], home: home).status == 0)
    #expect(try ConcordCLI.run(["daemon", "stop"], home: home).output.contains("stopped"))
    let bothRuns = try String(contentsOf: log, encoding: .utf8)
    #expect(bothRuns.hasPrefix(firstRun) && bothRuns.count > firstRun.count)

    // A start that fails says why: the last line its own run wrote.
    chmod(home.appending(path: "key").path, 0o644)
    let refused = try ConcordCLI.run(["daemon", "start"], home: home)
    #expect(refused.status != 0)
    #expect(refused.error.contains("concordd exited") && refused.error.contains("accessible by others"), "\(refused.error)")
  }

  @Test func logTailPrintsEntriesAsTheyAreCommitted() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    let tail = try RunningCLI(["log", "tail"], home: daemon.home)
    defer { tail.stop() }
    usleep(300_000)
    try ConcordCLI.run(["send", "counter", "add 7"], home: daemon.home)
    let line = try tail.readLine(containing: "amount", "applied")
    #expect(line.contains("\tcounter\t"))
    try ConcordCLI.run(["send", "counter", "dec"], home: daemon.home)
    try ConcordCLI.run(["send", "note:4", "toggle"], home: daemon.home)
    try tail.readLine(containing: "decrement", "applied")
  }

  @Test func theStateAtAnySeqIsTheReplayOfTheFirstEntries() throws {
    let daemon = try DaemonUnderTest(arguments: ["--snapshot-interval", "4"]).start()
    defer { daemon.removeHome() }
    for step in 1...12 {
      let text = step % 3 == 0 ? "dec" : "add \(step)"
      try ConcordCLI.run(["send", "counter", text], home: daemon.home)
    }
    #expect(daemon.terminate() == 0)
    let log = try ActionLog.open(at: daemon.home.appending(path: "log.sqlite"), key: .file(daemon.home.appending(path: "key")))
    for seq in [Int64(0), 1, 5, 9, log.lastSeq] {
      // A fresh fold of the first `seq` entries, straight from the log.
      var state = SampleApp.State()
      try log.forEachEntry(through: seq) { entry in
        let action = try SampleApp.hosted.decodeLogged(entry)
        if case .applied = entry.record.outcome {
          _ = SampleApp.reducer.reduce(into: &state, action: action, environment: ())
        }
      }
      let printed = try ConcordCLI.run(["state", "--at", "\(seq)"], home: daemon.home)
      #expect(printed.status == 0, "\(printed.error)")
      #expect(try JSONValue(parsing: printed.output) == (try JSONValue(encoding: state)), "at \(seq)")
    }
    let beyond = try ConcordCLI.run(["state", "--at", "9999"], home: daemon.home)
    #expect(beyond.status == 1)
    #expect(beyond.error.contains("the log ends at entry"))
  }

  @Test func anExportVerifiesAndATamperedLogFailsNamingTheEntry() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    for _ in 1...5 { try ConcordCLI.run(["send", "counter", "inc"], home: daemon.home) }
    #expect(daemon.terminate() == 0)
    let export = daemon.home.appending(path: "audit.jsonl").path
    #expect(try ConcordCLI.run(["log", "export", "--format", "jsonl", "-o", export], home: daemon.home).status == 0)
    let verified = try ConcordCLI.run(
      ["log", "verify", export, "--public-key", daemon.home.appending(path: "log.sqlite.pub").path], home: daemon.home)
    #expect(verified.status == 0, "\(verified.error)")
    #expect(try ConcordCLI.run(["log", "verify"], home: daemon.home).status == 0)
    let counterOnly = try ConcordCLI.run(["log", "export", "--scope", "counter"], home: daemon.home).output
    // Each send is its action alone: a command is not a window, so nothing else is logged for it.
    let records = counterOnly.split(separator: "\n").filter { $0.contains(#""type":"entry""#) }
    #expect(records.count == 5)
    #expect(records.allSatisfy { $0.contains(#""scope":"counter""#) })
    #expect(records.filter { $0.contains("increment") }.count == 5)

    // One byte of entry 4's ciphertext changes.
    try LogTamper.run(LogTamper.changeFirstCiphertextByte(ofEntry: 4), on: daemon.home)
    let failed = try ConcordCLI.run(["log", "verify"], home: daemon.home)
    #expect(failed.status == 1)
    #expect(failed.error.contains("seq 4"), "\(failed.error)")
  }

  @Test func everyCommandsHelpHasAnExampleAndMistakesAreOneLineWithExitCode2() throws {
    let home = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let commands = [
      ["attach"], ["send"], ["outbox"], ["outbox", "list"], ["outbox", "sync"], ["outbox", "drop"], ["state"], ["log"],
      ["log", "export"], ["log", "verify"], ["log", "tail"], ["daemon"], ["daemon", "start"], ["daemon", "stop"],
      ["daemon", "status"], ["dial-stdio"], ["relay"],
    ]
    for command in commands {
      let help = try ConcordCLI.run(command + ["--help"], home: home)
      #expect(help.status == 0)
      // A line continued in the source (`\` at its end) reads as one line, not as a backslash.
      #expect(!help.output.contains("\\\n"), "\(command): a stray backslash in \(help.output)")
      #expect(help.output.contains("concord " + command.joined(separator: " ")), "\(command): \(help.output)")
      #expect(help.output.contains("Example"), "\(command) has no example")
    }
    for mistake in [["atach", "counter"], ["send", "counter", "{nope"], ["send", "counter", "fly away"], ["state", "--at", "x"]] {
      let result = try ConcordCLI.run(mistake, home: home)
      #expect(result.status == 2, "\(mistake): \(result.status) \(result.error)")
      #expect(result.error.split(separator: "\n").count == 1, "\(mistake): \(result.error)")
    }
  }
}
