import ConcordLog
import ConcordPlatform
import ConcordWire
import Foundation
import GRDB
import Testing

@testable import ConcordClient

/// A home witnesses the daemon's log: what it remembers, and the words it uses when the daemon's
/// log does not carry on from there.
@Suite struct LogWitnessTests {
  @Test func aLogEndingBeforeWhatTheHomeSawIsReportedInWords() {
    let seen = LogPosition(logID: "3d1f", seq: 1_220)
    let divergence = LogDivergence.between(witnessed: seen, daemon: LogPosition(logID: "3d1f", seq: 1_204))
    #expect(
      divergence?.description
        == "the daemon's log ends at 1,204 but this home has seen 1,220: the log was rolled back or restored from an older copy")
    #expect(LogDivergence.between(witnessed: seen, daemon: LogPosition(logID: "3d1f", seq: 1_220)) == nil)
    #expect(LogDivergence.between(witnessed: seen, daemon: LogPosition(logID: "9e0a", seq: 5_000)) == .replaced(known: "3d1f", now: "9e0a"))
    #expect(LogDivergence.between(witnessed: nil, daemon: LogPosition(logID: "3d1f", seq: 1)) == nil)
  }

  /// It only rises along one log — with an answer, with a state seen — until a person adopts
  /// the daemon's position; and it is sealed, like everything else in the outbox.
  @Test func theWitnessedPositionOnlyRisesUntilAPersonAdoptsTheDaemons() throws {
    let home = TemporaryHome.make()
    defer { try? FileManager.default.removeItem(at: home) }
    let outbox = try Outbox.open(home: ConcordHome(home))
    let log = "0123456789abcdef0123456789abcdef"
    #expect(try outbox.witnessed() == nil)
    try outbox.witness(LogPosition(logID: log, seq: 5))
    try outbox.witness(LogPosition(logID: log, seq: 3))
    try outbox.witness(LogPosition(logID: "another-log", seq: 9))
    #expect(try outbox.witnessed() == LogPosition(logID: log, seq: 5))

    let queued = try outbox.enqueue(scope: "counter", action: ["increment": [:]])
    try outbox.remove(cseq: queued.cseq, answeredAt: LogPosition(logID: log, seq: 7))
    #expect(try outbox.witnessed() == LogPosition(logID: log, seq: 7))
    try outbox.remember(SeenState(scope: "counter", logID: log, seq: 8, state: 1))
    #expect(try outbox.witnessed() == LogPosition(logID: log, seq: 8))

    let bytes = try Data(contentsOf: home.appending(path: "outbox.sqlite")) + (try Data(contentsOf: home.appending(path: "outbox.sqlite-wal")))
    #expect(bytes.range(of: Data(log.utf8)) == nil, "the log id is in the outbox in the clear")

    try outbox.adopt(LogPosition(logID: log, seq: 2))
    #expect(try outbox.witnessed() == LogPosition(logID: log, seq: 2))
    // The states kept belong to the history given up.
    #expect(try outbox.lastSeen("counter") == nil)
  }
}

/// An outbox written before witnessing knew only the daemon's log id, in the clear: opened now,
/// that id becomes the witnessed position, and the clear copy is gone.
@Suite struct LegacyOutboxWitnessTests {
  @Test func anOutboxThatKnewOnlyTheLogIDWitnessesItAtSeqZero() throws {
    let home = TemporaryHome.make()
    defer { try? FileManager.default.removeItem(at: home) }
    let log = "0123456789abcdef0123456789abcdef"
    do {
      let outbox = try Outbox.open(home: ConcordHome(home))
      try outbox.database.write { db in
        try db.execute(sql: "DELETE FROM witness")
        try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('log_id', ?)", arguments: [log])
      }
    }
    let reopened = try Outbox.open(home: ConcordHome(home))
    #expect(try reopened.witnessed() == LogPosition(logID: log, seq: 0))
    let clear = try reopened.database.read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'log_id'") }
    #expect(clear == nil)
    // Witnessing goes on along that log.
    try reopened.witness(LogPosition(logID: log, seq: 7))
    #expect(try reopened.witnessed() == LogPosition(logID: log, seq: 7))
  }
}
