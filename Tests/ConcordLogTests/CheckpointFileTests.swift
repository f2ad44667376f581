import Foundation
import Testing

@testable import ConcordLog

/// The checkpoint file beside the database: two slots, each new checkpoint over the older one,
/// so that a write torn by a crash leaves the checkpoint before it.
@Suite struct CheckpointFileTests {
  /// The checkpoint in slot `index` of the file, or nil when that slot does not read as one.
  func slot(_ index: Int, of log: ActionLog) throws -> Checkpoint? {
    let bytes = try [UInt8](Data(contentsOf: log.checkpointFile))
    try #require(bytes.count == 2 * CheckpointFile.slotBytes)
    let start = index * CheckpointFile.slotBytes
    return Checkpoint.parse(fileLine: Array(bytes[start..<start + CheckpointFile.slotBytes]))?.checkpoint
  }

  @Test func eachCheckpointReplacesTheOlderOfTheTwoSlots() throws {
    let fixture = LogFixture()
    let log = try fixture.open(options: .init(checkpointInterval: 10))
    try log.append((1...10).map { record($0) })
    // A new log's file holds its genesis checkpoint (seq 0) in both slots; the first
    // checkpoint of entries takes the first slot.
    #expect(try [slot(0, of: log)?.seq, slot(1, of: log)?.seq] == [10, 0])
    try log.append((11...20).map { record($0) })
    #expect(try [slot(0, of: log)?.seq, slot(1, of: log)?.seq] == [10, 20])
    try log.append((21...30).map { record($0) })
    #expect(try [slot(0, of: log)?.seq, slot(1, of: log)?.seq] == [30, 20])
    try log.close()
    #expect(try fixture.open().verify().isSound)
  }

  @Test func aSlotTornByACrashLeavesTheCheckpointBeforeIt() throws {
    let fixture = LogFixture()
    let log = try fixture.open(options: .init(checkpointInterval: 10))
    try log.append((1...20).map { record($0) })
    // Slot 0 holds 20, slot 1 holds 10. A crash halfway through the next write of slot 1:
    let handle = try FileHandle(forWritingTo: log.checkpointFile)
    try handle.seek(toOffset: UInt64(CheckpointFile.slotBytes))
    try handle.write(contentsOf: Data(#"{"log_id":"00","seq":3"#.utf8))
    try handle.close()
    #expect(try slot(1, of: log) == nil)

    // The file still vouches for entry 20: cutting the database short of it is caught, …
    let report = try log.verify()
    #expect(report.isSound)
    try fixture.tamper("DELETE FROM entries WHERE seq > 15")
    #expect {
      _ = try fixture.open()
    } throws: { error in
      "\(error)".contains("truncated tail") && "\(error)".contains("vouches for entry 20")
    }
  }

  @Test func theNextCheckpointAfterATornSlotIsWrittenOverThatSlot() throws {
    let fixture = LogFixture()
    let log = try fixture.open(options: .init(checkpointInterval: 10))
    try log.append((1...10).map { record($0) })
    // The slots hold entries 10 and 0; tearing the second keeps it the one to overwrite.
    let handle = try FileHandle(forWritingTo: log.checkpointFile)
    try handle.seek(toOffset: UInt64(CheckpointFile.slotBytes))
    try handle.write(contentsOf: Data(repeating: 0, count: 40))
    try handle.close()
    try log.append((11...20).map { record($0) })
    #expect(try [slot(0, of: log)?.seq, slot(1, of: log)?.seq] == [10, 20])
    #expect(try log.verify().isSound)
  }

  @Test func aOneLineCheckpointFileIsStillReadAndThenRewrittenWithTwoSlots() throws {
    let fixture = LogFixture()
    var log = try fixture.open(options: .init(checkpointInterval: 10))
    try log.append((1...10).map { record($0) })
    let newest = try #require(try slot(0, of: log))
    // The layout of one JSON line, as the file was first written.
    try Data(newest.fileLine(logID: log.logID).utf8).write(to: log.checkpointFile)
    try fixture.tamper("DELETE FROM entries WHERE seq > 5")
    #expect(throws: LogError.self) { _ = try fixture.open() }

    let fresh = LogFixture()
    log = try fresh.open(options: .init(checkpointInterval: 10))
    try log.append((1...10).map { record($0) })
    try Data(try #require(try slot(0, of: log)).fileLine(logID: log.logID).utf8).write(to: log.checkpointFile)
    try log.append((11...20).map { record($0) })
    #expect(try [slot(0, of: log)?.seq, slot(1, of: log)?.seq] == [20, 20])
  }

  /// Puts into the second slot of `log`'s file a checkpoint of another log, one that holds
  /// `count` entries.
  func putAStrangersSlot(afterEntries count: Int, into log: ActionLog) throws {
    let other = LogFixture()
    let stranger = try other.open(options: .init(checkpointInterval: 10))
    try stranger.append((1...count).map { record($0) })
    var bytes = try [UInt8](Data(contentsOf: log.checkpointFile))
    let theirs = try [UInt8](Data(contentsOf: stranger.checkpointFile))
    bytes.replaceSubrange(CheckpointFile.slotBytes..., with: theirs[CheckpointFile.slotBytes...])
    try Data(bytes).write(to: log.checkpointFile)
  }

  @Test func slotsOfTwoDifferentLogsMakeTheFileNobodysCheckpoint() throws {
    let fixture = LogFixture()
    let log = try fixture.open(options: .init(checkpointInterval: 10))
    try log.append((1...10).map { record($0) })
    try putAStrangersSlot(afterEntries: 10, into: log)
    guard case .badCheckpoint = try log.verify().failure?.problem else {
      Issue.record("a checkpoint file holding another log's checkpoint must fail verification")
      return
    }
  }

  @Test func theNextCheckpointOverwritesAnotherLogsSlotEvenWhenItsSeqIsHigher() throws {
    let fixture = LogFixture()
    let log = try fixture.open(options: .init(checkpointInterval: 10))
    try log.append((1...10).map { record($0) })
    // The second slot now holds a checkpoint of another log's, newer by seq than any of ours.
    try putAStrangersSlot(afterEntries: 30, into: log)
    try log.append((11...20).map { record($0) })
    #expect(try [slot(0, of: log)?.seq, slot(1, of: log)?.seq] == [10, 20])
    #expect(try log.verify().isSound)
  }
}
