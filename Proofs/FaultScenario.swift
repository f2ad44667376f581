import ConcordClient
import ConcordLog
import ConcordPlatform
import ConcordWire
import DaemonDriving
import Foundation

/// One fault the suite injects, what must happen, and what did.
struct FaultScenario: Sendable {
  var name: String
  /// The guarantee: a clear error, or a correct recovery.
  var expected: String
  var run: @Sendable (FaultBench) throws -> Outcome

  struct Outcome {
    var observed: String
    var held: Bool
    /// The fault could not be injected here (it needs root): nothing was shown either way.
    var skipped = false

    static func skipped(_ reason: String) -> Outcome { Outcome(observed: "skipped: \(reason)", held: false, skipped: true) }
  }
}

/// A fresh home per scenario, and the moves scenarios share: start the daemon, drive it, read
/// its log and state, and start it expecting a refusal.
final class FaultBench {
  let work: URL
  let home: URL
  /// Where the daemon's output goes: off the home's filesystem, which a scenario may fill.
  let outputs: URL

  init(work: URL, name: String, outputs: URL? = nil) throws {
    self.work = work
    self.outputs = outputs ?? work
    home = try DaemonUnderTest.makeHome(named: name.replacingOccurrences(of: " ", with: "-"), in: work)
  }

  var log: URL { ConcordHome(home).log }
  var key: URL { ConcordHome(home).key }

  /// Starts the daemon and waits until it serves.
  func start(_ arguments: [String] = [], environment: [String: String] = [:]) throws -> DaemonUnderTest {
    let daemon = try DaemonUnderTest(home: home, arguments: arguments, environment: environment, outputIn: outputs)
    try daemon.waitUntilServing(timeout: 30)
    return daemon
  }

  /// Starts the daemon expecting it to refuse: its exit status and last line, or nil when it
  /// served instead (and was stopped).
  func startExpectingRefusal(_ arguments: [String] = []) throws -> (status: Int32, message: String)? {
    let daemon = try DaemonUnderTest(home: home, arguments: arguments, outputIn: outputs)
    if (try? daemon.waitUntilServing(timeout: 20)) != nil {
      daemon.stop()
      return nil
    }
    daemon.child.process.waitUntilExit()
    let lines = daemon.child.output.split(separator: "\n").map(String.init)
    return (daemon.child.process.terminationStatus, lines.last ?? "(nothing)")
  }

  /// Sends `count` increments from one window; returns the cseqs acknowledged (it stops at the
  /// first error or when the daemon closes the connection).
  func increment(_ count: Int, socket: String, client: String = "fault", from first: Int64 = 1) -> [Int64] {
    guard let window = try? LineSocket.window(path: socket, scope: "counter") else { return [] }
    var acknowledged: [Int64] = []
    for cseq in first..<(first + Int64(count)) {
      guard (try? window.sendIncrement(client: client, cseq: cseq)) != nil else { break }
      var answered = false
      while !answered, let line = try? window.expectLine(timeout: 10) {
        switch LineKind(ArraySlice(line.utf8)) {
        case .ack: acknowledged.append(cseq); answered = true
        case .update, .ping: continue
        case .refused, .other: answered = true
        }
      }
      if !answered || acknowledged.last != cseq { break }
    }
    return acknowledged
  }

  /// Sends `count` increments, all of which must be acknowledged: a scenario that starts from
  /// fewer would show nothing.
  func incrementAll(_ count: Int, socket: String, from first: Int64 = 1) throws -> [Int64] {
    let acknowledged = increment(count, socket: socket, from: first)
    guard acknowledged.count == count else {
      throw DriveError("only \(acknowledged.count) of \(count) increments were acknowledged")
    }
    return acknowledged
  }

  /// Starts the daemon, has it acknowledge `count` increments, and stops it (with SIGKILL when
  /// `crash`): the log a fault is then injected into.
  func seed(_ count: Int, _ arguments: [String] = [], crash: Bool = false) throws -> [Int64] {
    let daemon = try start(arguments)
    let acknowledged = try incrementAll(count, socket: daemon.socketPath)
    if crash { daemon.kill9() } else { daemon.stop() }
    return acknowledged
  }

  /// The counter of the daemon serving `socket`.
  func counter(_ daemon: DaemonUnderTest) throws -> Int64 {
    try ScopeReader.counter(socket: daemon.socketPath)
  }

  /// Starts the daemon, reads its counter and stops it: what a scenario checks once the fault
  /// is undone (or recovered from).
  func counterAfterRestart(_ arguments: [String] = [], environment: [String: String] = [:]) throws -> Int64 {
    let daemon = try start(arguments, environment: environment)
    defer { daemon.stop() }
    return try counter(daemon)
  }

  /// Runs `concord` (built beside this program) on this home; its exit status and output.
  func concord(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let binary = DaemonUnderTest.binary.deletingLastPathComponent().appending(path: "concord").path
    let child = try ChildProcess(
      binary, arguments, environment: ["CONCORD_HOME": home.path, "CONCORD_APP": "sample"], outputIn: work)
    child.process.waitUntilExit()
    return (child.process.terminationStatus, child.output)
  }

  /// `concord log verify`: its exit status, and the line it gives entry `seq` ("seq 30: bad
  /// seal": a bare number would also match a count or a path), or its whole output when no
  /// line names the entry.
  func verify(naming seq: Int64) throws -> (status: Int32, line: String) {
    let verify = try concord(["log", "verify"])
    let line = verify.output.split(separator: "\n").first { $0.contains("seq \(seq):") }.map(String.init)
    return (verify.status, line ?? verify.output)
  }
}
