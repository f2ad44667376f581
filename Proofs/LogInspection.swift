import ConcordLog
import ConcordPlatform
import ConcordWire
import Foundation

/// What a stopped daemon's log holds, read with the daemon's own key: whether it verifies, how
/// many times each `(client, cseq)` appears, and how many increments of the counter it applied.
struct LogInspection {
  var lastSeq: Int64 = 0
  var verification: String?
  /// Entries per `(client, cseq)`; more than one is a duplicate.
  var appearances: [ClientSeq: Int] = [:]
  var appliedIncrements: Int64 = 0

  struct ClientSeq: Hashable, Sendable {
    var client: String
    var cseq: Int64
  }

  var duplicates: Int { appearances.values.reduce(0) { $0 + max(0, $1 - 1) } }

  /// Opens the log of the stopped daemon at `home`, verifies it and reads every entry.
  init(home: URL) throws {
    let log = try ActionLog.open(at: ConcordHome(home).log, key: .file(ConcordHome(home).key))
    let report = try log.verify()
    if !report.isSound { verification = String(describing: report.failure) }
    lastSeq = log.lastSeq
    try log.forEachEntry { entry in
      appearances[ClientSeq(client: entry.record.client, cseq: entry.record.cseq), default: 0] += 1
      if entry.record.scope == "counter", entry.record.outcome == .applied, entry.record.action.contains("increment") {
        appliedIncrements += 1
      }
    }
  }
}

/// Whether a log's times only move forward.
struct LogTimes {
  var steppedBack = 0
  var verifies: Bool

  init(home: URL) throws {
    let log = try ActionLog.open(at: ConcordHome(home).log, key: .file(ConcordHome(home).key))
    verifies = try log.verify().isSound
    var last = Date.distantPast
    try log.forEachEntry { entry in
      if entry.record.at < last { steppedBack += 1 }
      last = max(last, entry.record.at)
    }
  }
}
