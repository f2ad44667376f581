import ConcordLog
import Foundation
import Testing

/// An attacker edits the database behind the log's back; `verify` names the seq and the break.
@Suite struct TamperTests {
  private func logWith(_ count: Int, _ fixture: LogFixture) throws -> ActionLog {
    let log = try fixture.open(options: .init(checkpointInterval: 10))
    // In batches, as a daemon writes: a checkpoint is signed every 10 entries.
    for start in stride(from: 1, through: count, by: 5) {
      try log.append((start...min(start + 4, count)).map { record($0) })
    }
    try log.close()
    #expect(try log.checkpoints().map(\.seq) == Array(stride(from: 10, through: count, by: 10)).map(Int64.init) + (count % 10 == 0 ? [] : [Int64(count)]))
    #expect(try log.verify().isSound)
    return log
  }

  @Test func aFlippedByteInACiphertextIsABadSeal() throws {
    let fixture = LogFixture()
    let log = try logWith(50, fixture)
    var ciphertext = [UInt8](try fixture.rawValue("SELECT ciphertext FROM entries WHERE seq = 17")!)
    ciphertext[5] ^= 0x01
    try fixture.tamper("UPDATE entries SET ciphertext = ? WHERE seq = 17", arguments: [Data(ciphertext)])
    let report = try log.verify()
    #expect(report.failure == .init(seq: 17, problem: .badSeal))
    #expect(report.verifiedEntries == 16)
  }

  @Test func aDeletedRowIsAGap() throws {
    let fixture = LogFixture()
    let log = try logWith(50, fixture)
    try fixture.tamper("DELETE FROM entries WHERE seq = 23")
    #expect(try log.verify().failure == .init(seq: 23, problem: .gap(next: 24)))
  }

  @Test func twoSwappedRowsFailToOpen() throws {
    let fixture = LogFixture()
    let log = try logWith(50, fixture)
    try fixture.tamper("UPDATE entries SET seq = -1 WHERE seq = 30")
    try fixture.tamper("UPDATE entries SET seq = 30 WHERE seq = 31")
    try fixture.tamper("UPDATE entries SET seq = 31 WHERE seq = -1")
    #expect(try log.verify().failure == .init(seq: 30, problem: .badSeal))
  }

  @Test func aRowFromAnotherPlaceWithItsHashIsCaught() throws {
    // Copying row 12's sealed payload and hash over row 40 keeps the table consistent-looking.
    let fixture = LogFixture()
    let log = try logWith(50, fixture)
    try fixture.tamper(
      """
      UPDATE entries SET nonce = (SELECT nonce FROM entries WHERE seq = 12),
        ciphertext = (SELECT ciphertext FROM entries WHERE seq = 12),
        hash = (SELECT hash FROM entries WHERE seq = 12) WHERE seq = 40
      """)
    #expect(try log.verify().failure == .init(seq: 40, problem: .badSeal))
  }

  @Test func aTruncatedTailIsCaughtByTheCheckpointOutsideTheDatabase() throws {
    let fixture = LogFixture()
    let log = try logWith(55, fixture)
    // The attacker removes the tail *and* every checkpoint in the database.
    try fixture.tamper("DELETE FROM entries WHERE seq > 48")
    try fixture.tamper("DELETE FROM checkpoints")
    let report = try log.verify()
    #expect(report.failure == .init(seq: 49, problem: .truncatedTail(lastSeq: 48)))
  }

  @Test func aLogCutShortRefusesToOpenSoItsCheckpointFileIsNotOverwritten() throws {
    let fixture = LogFixture()
    _ = try logWith(55, fixture)
    try fixture.tamper("DELETE FROM entries WHERE seq > 48")
    try fixture.tamper("DELETE FROM checkpoints")
    let error = try #require(throws: LogError.self) { try fixture.open() }
    #expect(error == .corruptEntry(seq: 49, reason: "truncated tail: the log ends at entry 48, but \(fixture.databaseURL.path).checkpoint vouches for entry 55"))
  }

  @Test func aForgedCheckpointIsCaught() throws {
    let fixture = LogFixture()
    let log = try logWith(30, fixture)
    try fixture.tamper("UPDATE checkpoints SET signature = zeroblob(64) WHERE seq = 20")
    let report = try log.verify()
    #expect(report.failure?.seq == 20)
    guard case .badCheckpoint = report.failure?.problem else {
      Issue.record("expected a bad checkpoint, got \(String(describing: report.failure))")
      return
    }
  }

  @Test func readingStopsAtACorruptEntryAndSaysWhich() throws {
    let fixture = LogFixture()
    let log = try logWith(20, fixture)
    try fixture.tamper("UPDATE entries SET at_ms = at_ms + 1 WHERE seq = 9")
    var seen: [Int64] = []
    #expect(throws: LogError.corruptEntry(seq: 9, reason: "its chain hash does not match")) {
      try log.forEachEntry { seen.append($0.seq) }
    }
    #expect(seen == Array(1...8))
  }

  /// A new log has its checkpoint file from the start (vouching for no entry); an empty log
  /// that lost it (a stop between creating the database and the file) gets it at the next open.
  @Test func anEmptyLogHasItsCheckpointFileFromTheStart() throws {
    let fixture = LogFixture()
    let log = try fixture.open()
    #expect(FileManager.default.fileExists(atPath: log.checkpointFile.path))
    try FileManager.default.removeItem(at: log.checkpointFile)
    let reopened = try fixture.open()
    #expect(FileManager.default.fileExists(atPath: reopened.checkpointFile.path))
    try reopened.append([record(1)])
    #expect(try reopened.verify().isSound)

    // A file of no entries is no evidence: a database removed beside it may be started anew.
    let empty = LogFixture()
    _ = try empty.open()
    try FileManager.default.removeItem(at: empty.databaseURL)
    #expect(try empty.open().lastSeq == 0)
  }

  @Test func aCheckpointFileFromElsewhereIsABreakAndAMissingOneFailsUnlessWaived() throws {
    let fixture = LogFixture()
    let log = try logWith(20, fixture)
    let other = LogFixture()
    let stranger = try other.open()
    try stranger.append([record(1)])
    try stranger.close()

    // A log has its checkpoint file from its creation on: without it, a cut tail would hide.
    try FileManager.default.removeItem(at: log.checkpointFile)
    #expect(try log.verify().failure == .init(seq: 20, problem: .noCheckpointFile(path: log.checkpointFile.path, lastSeq: 20)))
    let unanchored = try log.verify(withoutCheckpointFile: true)
    #expect(unanchored.isSound)
    #expect(unanchored.notes.contains { $0.contains("truncated tail cannot be detected") })

    try FileManager.default.copyItem(at: stranger.checkpointFile, to: log.checkpointFile)
    guard case .badCheckpoint = try log.verify().failure?.problem else {
      Issue.record("a checkpoint file of another log must fail verification")
      return
    }
  }
}
