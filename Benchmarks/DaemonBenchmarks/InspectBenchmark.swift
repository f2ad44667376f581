import ConcordApp
import ConcordLog
import ConcordReplay
import DaemonDriving
import Foundation
import SampleApp

/// The inspector on a long log: a log of `entries` sample-app actions with a snapshot every
/// 1,000 entries (as the daemon keeps them), then, as `concord inspect` does them, the times to
/// open it (its first screen: the last page of entries in the app's words), to jump to a seq
/// (the page around it) and to show an entry's change. Goal: each under 200 ms, however long the
/// log, because a page reads only its own entries after the nearest snapshot. And the most a
/// filtered page can read: a person with no entries, looked for back to the log's start a
/// window's chunk at a time, each record decrypted and none of them replayed.
struct InspectBenchmark {
  var entries: Int
  var trials = 20
  /// The seqs a page around a jump covers, and an open reads: the window's chunk.
  var page: Int64 = 400

  func run() throws {
    let home = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let url = home.appending(path: "log.sqlite")
    let key = KeySource.file(home.appending(path: "key"))
    let app = SampleApp.hosted
    try write(to: url, key: key, app: app)
    let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int64) ?? 0
    print("inspect, \(entries.formatted()) entries (\(size / 1_048_576) MiB), a snapshot every 1,000:")

    let inspector = LogInspector(app)
    var random = SystemRandomNumberGenerator()
    var opens: [Double] = []
    var jumps: [Double] = []
    var changes: [Double] = []
    for _ in 0..<trials {
      opens.append(
        try timed {
          let log = try ActionLog.open(at: url, key: key)
          let end = try log.storedLastSeq()
          try inspector.entries(log, max(1, end - page + 1), end, EntryFilter()) { _ in true }
        })
      let log = try ActionLog.open(at: url, key: key)
      let seq = Int64.random(in: 1...Int64(entries), using: &random)
      jumps.append(try timed { try inspector.entries(log, max(1, seq - page / 2), seq + page / 2, EntryFilter()) { _ in true } })
      changes.append(try timed { _ = try inspector.change(log, seq, false) })
    }
    for (name, times) in [("open (ActionLog.open and the last page)", opens), ("jump to a random seq (the page around it)", jumps),
                          ("an entry's change (its scope before and after)", changes)] {
      let sorted = times.sorted()
      let worst = sorted.last ?? 0
      print("  \(name): p50 \(milliseconds(sorted[sorted.count / 2])), max \(milliseconds(worst)) over \(trials); goal < 200 ms: \(worst < 0.2 ? "met" : "MISSED")")
    }
    var nobody = EntryFilter()
    nobody.user = "nobody"
    var scans: [Double] = []
    for _ in 0..<3 {
      let log = try ActionLog.open(at: url, key: key)
      var upper = try log.storedLastSeq()
      scans.append(
        try timed {
          while upper >= 1 {
            try inspector.entries(log, max(1, upper - page + 1), upper, nobody) { _ in true }
            upper -= page
          }
        })
    }
    let worstScan = scans.max() ?? 0
    print(
      "  a filter no entry passes, read back to the start (user=nobody): \(scans.map(milliseconds).joined(separator: ", ")); goal < 5 s: \(worstScan < 5 ? "met" : "MISSED")")
  }

  /// Appends `entries` increments, notes and refusals, and saves a snapshot every 1,000, as the
  /// daemon would.
  private func write(to url: URL, key: KeySource, app: HostedApp<SampleApp.State, SampleApp.Action>) throws {
    let log = try ActionLog.open(at: url, key: key)
    var written: Int64 = 0
    var lastReport = Date()
    while written < entries {
      let size = Int64(min(1_000, entries - Int(written)))
      let records = (1...size).map { offset in
        let seq = written + offset
        let action = seq % 100 == 0 ? #"{"notes":{"add":{"text":"note \#(seq)"}}}"# : #"{"counter":{"increment":{}}}"#
        return LogRecord(
          client: "seed", cseq: seq, at: Date(), user: seq % 3 == 0 ? "bob" : "alice", scope: seq % 100 == 0 ? "notes" : "counter",
          action: action, outcome: .applied, app: app.name, appVersion: app.version)
      }
      _ = try log.append(records)
      written += size
      if written % 1_000 == 0 {
        try log.saveSnapshot(try app.state(at: written, from: log).state, at: written, by: app.appVersion)
      }
      if Date().timeIntervalSince(lastReport) > 5 {
        print("  writing the log: \(written * 100 / Int64(entries))%")
        lastReport = Date()
      }
    }
    try log.close()
  }

  private func timed(_ body: () throws -> Void) rethrows -> Double {
    let started = monotonicNanoseconds()
    try body()
    return Double(monotonicNanoseconds() - started) / 1e9
  }

  private func milliseconds(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }
}
