import ConcordLog
import Foundation
import Testing

@Suite struct ActionLogTests {
  @Test func thousandsOfEntriesComeBackInOrderExactlyAsWritten() throws {
    let fixture = LogFixture()
    let log = try fixture.open()
    let records = (1...3000).map { record($0, refused: $0 % 7 == 0) }
    for batch in stride(from: 0, to: records.count, by: 250) {
      let results = try log.append(Array(records[batch..<batch + 250]))
      #expect(results.allSatisfy { !$0.isDuplicate })
    }
    #expect(log.lastSeq == 3000)

    // Reopened from disk, the log reads back every record, in order, with gapless seqs.
    let reopened = try fixture.open()
    #expect(reopened.lastSeq == 3000)
    #expect(reopened.head == log.head)
    var read: [LogEntry] = []
    try reopened.forEachEntry { read.append($0) }
    #expect(read.map(\.record) == records)
    #expect(read.map(\.seq) == Array(1...3000))
    #expect(try reopened.verify().isSound)

    var middle: [Int64] = []
    try reopened.forEachEntry(from: 1500, through: 1502) { middle.append($0.seq) }
    #expect(middle == [1500, 1501, 1502])
  }

  @Test func batchesOfEverySizeAroundTheSealingThreadStayChained() throws {
    // Batches long enough for a second sealing thread hand the sealing over to it wherever it
    // happens to wake up: before the first row, in the middle, or after the last.
    let fixture = LogFixture()
    let log = try fixture.open()
    var records: [LogRecord] = []
    for size in 1...80 {
      let batch = (records.count + 1...records.count + size).map { record($0) }
      let results = try log.append(batch)
      #expect(results.map(\.entry.seq) == (records.count + 1...records.count + size).map(Int64.init))
      records += batch
    }
    #expect(try log.verify().isSound)
    var read: [LogRecord] = []
    try fixture.open().forEachEntry { read.append($0.record) }
    #expect(read == records)
  }

  @Test func aRetriedActionIsKeptOnceAndAnsweredWithTheOriginal() throws {
    let fixture = LogFixture()
    let log = try fixture.open()
    let first = try log.append([record(1), record(2)])
    // The window retries cseq 2 (its ack was lost) and sends cseq 3 twice in one batch.
    let retry = try log.append([record(2), record(3), record(3)])
    #expect(retry.map(\.isDuplicate) == [true, false, true])
    #expect(retry[0].entry == first[1].entry)
    #expect(retry[2].entry.seq == retry[1].entry.seq)
    #expect(log.lastSeq == 3)
    // Another client may use the same cseq.
    let other = try log.append([record(2, client: "window-2")])
    #expect(other[0].isDuplicate == false)
    #expect(other[0].entry.seq == 4)
    #expect(try log.entry(client: "window-1", cseq: 3)?.seq == 3)
    #expect(try log.verify().isSound)
  }

  @Test func aLargeBatchWithRetriesInsideKeepsTheChainGapless() throws {
    let fixture = LogFixture()
    let log = try fixture.open()
    try log.append((1...10).map { record($0) })
    // A reconnecting window resends cseq 5...10 ahead of 40 new actions, and one of the new ones
    // twice: the retries take no seq and everything after them is chained from where the log is.
    let resent = (5...10).map { record($0) } + (11...30).map { record($0) } + [record(20)] + (31...50).map { record($0) }
    let results = try log.append(resent)
    #expect(results.filter(\.isDuplicate).count == 7)
    #expect(results.filter { !$0.isDuplicate }.map(\.entry.seq) == Array(11...50))
    #expect(log.lastSeq == 50)
    #expect(try log.verify().isSound)
    var read: [LogRecord] = []
    try fixture.open().forEachEntry { read.append($0.record) }
    #expect(read == (1...50).map { record($0) })
    // What `append` answered is what the log holds: seqs, hashes and salts alike.
    var stored: [LogEntry] = []
    try log.forEachEntry(from: 11) { stored.append($0) }
    #expect(results.filter { !$0.isDuplicate }.map(\.entry) == stored)
  }

  @Test func aRetryDeepInALargeBatchIsCaughtAfterTheSealingThreadTookOver() throws {
    let fixture = LogFixture()
    let log = try fixture.open()
    try log.append((1...10).map { record($0) })
    // 300 new actions with a retry of cseq 5 at position 250: by then the sealing thread has
    // sealed rows past it, which assumed the retry took a seq; those rows are sealed again.
    var batch = (11...260).map { record($0) }
    batch.append(record(5))
    batch += (261...310).map { record($0) }
    let results = try log.append(batch)
    #expect(results.filter(\.isDuplicate).map(\.entry.seq) == [5])
    #expect(results.filter { !$0.isDuplicate }.map(\.entry.seq) == Array(11...310))
    #expect(try log.verify().isSound)
    var stored: [LogEntry] = []
    try log.forEachEntry(from: 11) { stored.append($0) }
    #expect(results.filter { !$0.isDuplicate }.map(\.entry) == stored)
  }

  @Test func appendsFromSeveralThreadsTakeSeqsOneBatchAfterAnother() async throws {
    let fixture = LogFixture()
    let log = try fixture.open()
    try await withThrowingTaskGroup { group in
      for client in 1...4 {
        group.addTask {
          for batch in 0..<10 {
            try log.append((1...40).map { record(batch * 40 + $0, client: "window-\(client)") })
          }
        }
      }
      try await group.waitForAll()
    }
    // 1,600 entries: a signed checkpoint was taken on the way, from whichever thread got there.
    #expect(log.lastSeq == 1600)
    try log.close()
    #expect(try log.checkpoints().last?.seq == 1600)
    let report = try fixture.open().verify()
    #expect(report.isSound)
    #expect(report.checkedCheckpoints >= 2)
  }

  @Test func anErrorFromTheReaderComesBackAsItIsNotAsALogFault() throws {
    struct Stop: Error, Equatable {}
    let log = try LogFixture().open()
    try log.append((1...3).map { record($0) })
    var seen: [Int64] = []
    #expect(throws: Stop()) {
      try log.forEachEntry { entry in
        seen.append(entry.seq)
        if entry.seq == 2 { throw Stop() }
      }
    }
    #expect(seen == [1, 2])
  }

  @Test func aFullDiskFailsTheWholeBatchAndTheLogStaysAppendable() throws {
    let fixture = LogFixture()
    let small = ActionLog.Options(maximumPageCount: 40)
    let log = try fixture.open(options: small)
    try log.append((1...10).map { record($0) })

    // Batches of big actions until the size limit stops one.
    var n = 10
    var failure: LogError?
    while failure == nil, n < 10_000 {
      let batch = (n + 1...n + 20).map { i in
        var big = record(i)
        big.action = String(repeating: "x", count: 2000)
        return big
      }
      do {
        try log.append(batch)
        n += 20
      } catch {
        failure = error
      }
    }
    guard case let .writeFailed(path, reason) = failure else {
      Issue.record("expected a write failure, got \(String(describing: failure))")
      return
    }
    #expect(path == fixture.databaseURL.path)
    #expect(reason.contains("full"))
    // Nothing of the failed batch was kept: the log ends where the last good batch ended.
    #expect(log.lastSeq == Int64(n))
    let reopened = try fixture.open()
    #expect(reopened.lastSeq == Int64(n))
    #expect(try reopened.verify().isSound)
    // The log in memory did not move either: its head is the one on disk.
    #expect(reopened.head == log.head)

    // Once there is room again, the same log appends where it left off.
    let roomy = try fixture.open()
    try roomy.append([record(n + 1)])
    #expect(roomy.lastSeq == Int64(n + 1))
    #expect(try roomy.verify().isSound)
  }

  @Test func aCheckpointThatCannotBeWrittenDoesNotFailTheDurableBatchBeforeIt() throws {
    let fixture = LogFixture()
    let log = try fixture.open(options: .init(checkpointInterval: 10))
    // Something stands where the checkpoint file goes: it cannot be written.
    let checkpointPath = fixture.databaseURL.path + ".checkpoint"
    // The file made with the log (vouching for no entry yet) is replaced by the obstacle.
    try FileManager.default.removeItem(atPath: checkpointPath)
    try FileManager.default.createDirectory(atPath: checkpointPath, withIntermediateDirectories: false)
    let appended = try log.append((1...10).map { record($0) })
    #expect(appended.map(\.entry.seq) == Array(1...10))
    #expect(log.lastSeq == 10)
    #expect(throws: LogError.self) { try log.close() }
    // Once the cause is gone the checkpoint is written, and the log is whole.
    try FileManager.default.removeItem(atPath: checkpointPath)
    try log.close()
    #expect(try log.verify().isSound)
    #expect(try log.checkpoints().last?.seq == 10)
  }

  @Test func aCheckpointFileThatCannotBeWrittenIsNotSignedAgainAtEveryBatch() throws {
    let fixture = LogFixture()
    let log = try fixture.open(options: .init(checkpointInterval: 10))
    let checkpointPath = fixture.databaseURL.path + ".checkpoint"
    // The file made with the log (vouching for no entry yet) is replaced by the obstacle.
    try FileManager.default.removeItem(atPath: checkpointPath)
    try FileManager.default.createDirectory(atPath: checkpointPath, withIntermediateDirectories: false)
    try log.append((1...10).map { record($0) })
    #expect(log.checkpointFileFailure != nil)
    // The checkpoint is in the database; the batches after it, short of the next interval, do
    // not sign and store another one each.
    for n in 11...15 { try log.append([record(n)]) }
    #expect(try log.checkpoints().map(\.seq) == [10])
    #expect(log.checkpointFileFailure != nil)
    // The next one is due at 20, and the file can be written again: it holds the newest.
    try FileManager.default.removeItem(atPath: checkpointPath)
    try log.append((16...20).map { record($0) })
    #expect(try log.checkpoints().map(\.seq) == [10, 20])
    #expect(log.checkpointFileFailure == nil)
    let file = try String(contentsOfFile: checkpointPath, encoding: .utf8)
    #expect(file.contains(#""seq":20"#))
  }

  @Test func aLogThatCannotBeWrittenSaysSoAndKeepsItsEntries() throws {
    let fixture = LogFixture()
    do {
      let log = try fixture.open()
      try log.append((1...5).map { record($0) })
    }
    // The database file is made read-only: immutable for root, who ignores modes.
    let undo = try fixture.makeReadOnly(fixture.databaseURL)
    defer { undo() }
    #expect {
      try fixture.open().append([record(6)])
    } throws: { error in
      guard case let LogError.writeFailed(path, reason) = error else { return false }
      return path == fixture.databaseURL.path && reason.contains("cannot be opened for writing")
    }
    undo()
    let reopened = try fixture.open()
    #expect(reopened.lastSeq == 5)
    #expect(try reopened.verify().isSound)
  }
}
