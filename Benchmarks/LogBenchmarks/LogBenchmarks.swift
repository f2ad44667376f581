import ConcordLog
import Foundation
import GRDB

/// Throughput of the action log against plain SQLite with the same durability, in one run.
///
///     scripts/bench.sh log            # or: swift run -c release concord-log-bench [--quick]
@main
struct LogBenchmarks {
  static func main() throws {
    let quick = CommandLine.arguments.contains("--quick")
    let directory = FileManager.default.temporaryDirectory.appending(path: "concord-log-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    print("ConcordLog benchmarks (\(quick ? "quick" : "full") run; WAL, synchronous=FULL, ~250-byte actions)")
    print("directory: \(directory.path)\n")

    // Entries per round: enough commits that fsync dominates as it does in production. Each
    // round times the baseline and the log one after the other (which goes first alternates), on
    // growing tables, so that a slow spell of the machine hits both. The ratio reported is the
    // median of the rounds' ratios, not the ratio of the two median rates shown beside it.
    let plan: [(batch: Int, entries: Int)] =
      quick ? [(1, 50), (64, 640), (1024, 4096)] : [(1, 400), (64, 12_800), (1024, 51_200)]
    let rounds = quick ? 3 : 7
    var rows: [(String, Double, String, Double?, String)] = []
    var lastLog: ActionLog?
    for (index, step) in plan.enumerated() {
      let plain = try PlainTable(at: directory.appending(path: "plain-\(index).sqlite"))
      let logDirectory = directory.appending(path: "log-\(index)")
      try FileManager.default.createDirectory(at: logDirectory, withIntermediateDirectories: true)
      let log = try ActionLog.open(
        at: logDirectory.appending(path: "log.sqlite"), key: .file(logDirectory.appending(path: "key")))
      var baselineRates: [Double] = []
      var logRates: [Double] = []
      var ratios: [Double] = []
      for round in 0..<rounds {
        let first = round * step.entries + 1
        let numbers = first..<first + step.entries
        let baseline: Double
        let rate: Double
        if round.isMultiple(of: 2) {
          baseline = try plain.insert(numbers, batch: step.batch)
          rate = try append(numbers, batch: step.batch, to: log)
        } else {
          rate = try append(numbers, batch: step.batch, to: log)
          baseline = try plain.insert(numbers, batch: step.batch)
        }
        baselineRates.append(baseline)
        logRates.append(rate)
        ratios.append(rate / baseline)
      }
      let ratio = median(ratios)
      let goal = step.batch == 64 ? (ratio >= 0.8 ? "≥ 0.80× met" : "≥ 0.80× MISSED") : "–"
      rows.append(("plain SQLite insert, batch \(step.batch)", median(baselineRates), "(baseline)", nil, ""))
      rows.append(("ActionLog.append, batch \(step.batch)", median(logRates), "plain SQLite, batch \(step.batch)", ratio, goal))
      print(
        "batch \(step.batch): ratios by round (the table shows their median)", ratios.map { String(format: "%.2f", $0) }.joined(separator: " "))
      lastLog = log
    }
    guard let log = lastLog else { return }
    let readRate = try measure(entries: log.lastSeq) {
      var count: Int64 = 0
      try log.forEachEntry { _ in count += 1 }
      precondition(count == log.lastSeq)
    }
    rows.append(("read and decrypt", readRate, "", nil, ""))
    let verifyRate = try measure(entries: log.lastSeq) {
      let report = try log.verify()
      precondition(report.isSound, "verify failed: \(String(describing: report.failure))")
    }
    rows.append(("verify", verifyRate, "", nil, verifyRate >= 300_000 ? "≥ 300 k/s met" : "≥ 300 k/s MISSED"))

    print(pad("benchmark", 34), pad("entries/s", 12), pad("baseline", 26), pad("ratio", 8), "goal")
    for (name, rate, baseline, ratio, goal) in rows {
      print(pad(name, 34), pad(format(rate), 12), pad(baseline, 26), pad(ratio.map { String(format: "%.2f×", $0) } ?? "", 8), goal)
    }
  }

  /// A record of about 250 bytes of sealed payload, as the daemon writes them.
  static func record(_ n: Int) -> LogRecord {
    LogRecord(
      client: "window-\(n % 16)", cseq: Int64(n), at: Date(), user: "alice", scope: "board",
      action: #"{"addCard":{"title":"Card \#(n) \#(String(repeating: "x", count: 160))","column":"doing"}}"#,
      outcome: .applied, app: "Workspace", appVersion: 1)
  }

  /// Appends the records numbered `numbers` to `log` in batches, and returns entries per second.
  static func append(_ numbers: Range<Int>, batch: Int, to log: ActionLog) throws -> Double {
    let records = numbers.map(record)
    return try measure(entries: Int64(records.count)) {
      for start in stride(from: 0, to: records.count, by: batch) {
        try log.append(Array(records[start..<min(start + batch, records.count)]))
      }
    }
  }

  /// The baseline: the same table shape, rows of the same sizes (random bytes in place of the
  /// sealed payload and hash), one transaction per batch, the same pragmas, no cryptography.
  struct PlainTable {
    let pool: DatabasePool
    let noise: [UInt8]
    let rowBytes: Int
    let payloadSize: Int

    init(at url: URL) throws {
      pool = try DatabasePool(path: url.path)
      // What the log does too: GRDB opens a pool with synchronous = NORMAL.
      try FullSync.require(on: pool)
      try pool.write { db in
        try db.execute(
          sql: """
            CREATE TABLE entries (seq INTEGER PRIMARY KEY NOT NULL, at_ms INTEGER NOT NULL,
              client TEXT NOT NULL, cseq INTEGER NOT NULL, nonce BLOB NOT NULL,
              ciphertext BLOB NOT NULL, hash BLOB NOT NULL);
            CREATE UNIQUE INDEX entries_client_cseq ON entries (client, cseq);
            """)
      }
      let sample = LogBenchmarks.record(1)
      payloadSize = 64 + sample.action.utf8.count + sample.user.utf8.count + sample.scope.utf8.count
      // Incompressible bytes, made once: the row contents do not matter to SQLite, only their sizes.
      rowBytes = payloadSize + 72
      var generator = SystemRandomNumberGenerator()
      var noise = [UInt8](repeating: 0, count: rowBytes * 64)
      for index in noise.indices { noise[index] = UInt8(truncatingIfNeeded: generator.next() as UInt64) }
      self.noise = noise
    }

    /// Inserts rows numbered `numbers` in batches, and returns rows per second.
    func insert(_ numbers: Range<Int>, batch: Int) throws -> Double {
      var rows: [(Int64, String, Data, Data, Data)] = []
      for n in numbers {
        let offset: Int = (n % 64) * rowBytes
        let nonce = Data(noise[offset..<offset + 24])
        let ciphertext = Data(noise[offset + 24..<offset + 40 + payloadSize])
        let hash = Data(noise[offset + 40 + payloadSize..<offset + rowBytes])
        rows.append((Int64(n), "window-\(n % 16)", nonce, ciphertext, hash))
      }
      return try measure(entries: Int64(rows.count)) {
        for start in stride(from: 0, to: rows.count, by: batch) {
          try pool.write { db in
            let insert = try db.cachedStatement(
              sql: "INSERT INTO entries (seq, at_ms, client, cseq, nonce, ciphertext, hash) VALUES (?, ?, ?, ?, ?, ?, ?)")
            for (seq, client, nonce, ciphertext, hash) in rows[start..<min(start + batch, rows.count)] {
              try insert.execute(arguments: [seq, seq, client, seq, nonce, ciphertext, hash])
            }
          }
        }
      }
    }
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
  }

  static func measure(entries: Int64, _ body: () throws -> Void) throws -> Double {
    let clock = ContinuousClock()
    let elapsed = try clock.measure(body)
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Double(entries) / seconds
  }

  static func format(_ rate: Double) -> String {
    rate >= 1e6 ? String(format: "%.2f M", rate / 1e6) : rate >= 1e3 ? String(format: "%.1f k", rate / 1e3) : String(format: "%.0f", rate)
  }

  static func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
  }
}
