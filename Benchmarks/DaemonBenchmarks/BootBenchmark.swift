import ConcordLog
import DaemonDriving
import Foundation

/// Boot time of a daemon whose log holds `entries` actions: once with no snapshot at all (the
/// whole log is replayed), once with a snapshot `tail` entries behind the end (what the default
/// snapshot interval leaves at worst).
struct BootBenchmark {
  var entries: Int
  var tail: Int
  /// Every entry a text of its own (`add` with its own amount), so that no decoded action is
  /// reused: the slowest boot. Otherwise every entry is the counter's increment.
  var distinct = false
  /// Where to leave a copy of the home as it is before the first boot (the whole log, no
  /// snapshot), for profiling a replay: `concord state counter --at N --home DIR`.
  var keep: URL?

  struct Figures {
    var withoutSnapshot: Double
    var withSnapshot: Double
    var logBytes: Int64
    /// `concord log verify` and `concord state counter` on the log without a snapshot, when
    /// measured (the `boot` mode).
    var verify: Double?
    var stateCommand: Double?
  }

  /// - Parameter commands: also time `concord log verify` and `concord state` on the whole log.
  func run(in directory: URL, commands: Bool = false) throws -> Figures {
    let home = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let logURL = home.appending(path: "log.sqlite")
    let keySource = KeySource.file(home.appending(path: "key"))
    try write(entries, from: 1, to: logURL, key: keySource, label: "writing a \(entries.formatted())-entry log")
    if let keep {
      try? FileManager.default.removeItem(at: keep)
      try FileManager.default.copyItem(at: home, to: keep)
    }

    // No snapshot: the whole log is replayed.
    let cold = try bootTime(home: home, in: directory) { daemon in
      // The lifecycle action the boot sends is the first new entry, and it takes the snapshot.
      try daemon.child.wait(timeout: 120, for: "the first snapshot") { daemon.child.output.contains("snapshot at seq") }
    }
    var (verify, stateCommand): (Double?, Double?) = (nil, nil)
    if commands {
      // The daemon wrote a snapshot when it booted: a copy of the log without it, for `state`.
      let concord = DaemonUnderTest.binary.deletingLastPathComponent().appending(path: "concord").path
      // The log is the sample app's (what `concord` rebuilds it with).
      setenv("CONCORD_APP", "sample", 1)
      verify = try timed { _ = try runToEnd(concord, ["log", "verify", "--home", home.path]) }
      stateCommand = try timed { _ = try runToEnd(concord, ["state", "counter", "--at", "\(entries)", "--home", home.path]) }
    }
    try write(tail, from: Int64(entries) + 1, to: logURL, key: keySource, label: "appending a tail of \(tail) entries")
    let warm = try bootTime(home: home, in: directory) { _ in }
    let size = (try? FileManager.default.attributesOfItem(atPath: logURL.path)[.size] as? Int64) ?? 0
    return Figures(withoutSnapshot: cold, withSnapshot: warm, logBytes: size, verify: verify, stateCommand: stateCommand)
  }

  private func timed(_ body: () throws -> Void) rethrows -> Double {
    let started = monotonicNanoseconds()
    try body()
    return Double(monotonicNanoseconds() - started) / 1e9
  }

  /// Prints what `concord-daemon-bench boot` measured, with the goal (≥ 150 k entries/s).
  func report(_ boot: Figures) {
    let rate = { (seconds: Double) in "\(Int(Double(entries) / seconds / 1000)) k entries/s" }
    print("\(entries.formatted()) entries (\(boot.logBytes / 1_048_576) MiB, \(distinct ? "each its own text" : "one text repeated")), no snapshot:")
    print("  boot \(String(format: "%.2f s", boot.withoutSnapshot)) (\(rate(boot.withoutSnapshot))); goal ≥ 150 k entries/s: "
      + "\(Double(entries) / boot.withoutSnapshot >= 150_000 ? "met" : "MISSED")")
    if let verify = boot.verify { print("  concord log verify \(String(format: "%.2f s", verify)) (\(rate(verify)))") }
    if let state = boot.stateCommand { print("  concord state --at \(entries) \(String(format: "%.2f s", state)) (\(rate(state)))") }
    print("  boot with a snapshot 999 entries back \(String(format: "%.3f s", boot.withSnapshot))")
  }

  /// Seconds from starting `concordd` until it answers a `hello`.
  private func bootTime(home: URL, in directory: URL, afterwards: (DaemonUnderTest) throws -> Void) throws -> Double {
    let started = monotonicNanoseconds()
    let daemon = try DaemonUnderTest(home: home, logLevel: "info", outputIn: directory)
    try daemon.waitUntilServing()
    let seconds = Double(monotonicNanoseconds() - started) / 1e9
    try afterwards(daemon)
    daemon.stop()
    guard daemon.child.process.terminationStatus == 0 else { throw DriveError("concordd failed: \(daemon.child.output)") }
    return seconds
  }

  /// Appends `count` counter increments as the sample app's daemon writes them.
  private func write(_ count: Int, from first: Int64, to url: URL, key: KeySource, label: String) throws {
    let log = try ActionLog.open(at: url, key: key)
    let batch = 8192
    var written = 0
    var lastReport = Date()
    while written < count {
      let size = min(batch, count - written)
      let records = (0..<size).map { offset in
        LogRecord(
          client: "seed", cseq: first + Int64(written + offset), at: Date(), user: "bench", scope: "counter",
          action: distinct ? #"{"counter":{"add":{"amount":\#(first + Int64(written + offset))}}}"# : #"{"counter":{"increment":{}}}"#,
          outcome: .applied, app: "Sample", appVersion: 2)  // SampleApp.version
      }
      _ = try log.append(records)
      written += size
      if Date().timeIntervalSince(lastReport) > 2 {
        print("  \(label): \(written * 100 / count)%")
        lastReport = Date()
      }
    }
    try log.close()
  }
}
