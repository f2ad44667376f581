import ConcordLog
import Foundation
import PropertyRandom
import Testing

/// Where a reader of the log lands: `firstSeq(atOrAfter:)` against a plain walk over the
/// entries' times, and `storedLastSeq()` against what another writer appended.
@Suite struct SeekProperties {
  /// Random logs whose times never go back (as the daemon writes them), with runs of equal
  /// milliseconds, times before 1970 and sub-millisecond instants asked for: the binary search
  /// lands where the first entry at or after the time is, by a linear scan of the times the log
  /// returns.
  @Test(arguments: [UInt64(1), 2, 3, 4])
  func theFirstEntryAtOrAfterATimeIsWhereAScanFindsIt(seed: UInt64) throws {
    var random = PropertyRandom(seed: PropertyRandom.replayed ?? seed)
    let fixture = LogFixture()
    let log = try fixture.open()
    var milliseconds = Int64(random.int(-5_000...5_000))
    let count = random.int(0...300)
    var records: [LogRecord] = []
    for n in 0..<count {
      milliseconds += Int64(random.pick([0, 0, 1, 7, 1_000]))
      records.append(
        LogRecord(
          client: "c", cseq: Int64(n + 1), at: Date(timeIntervalSince1970: Double(milliseconds) / 1000), user: "u",
          scope: "s", action: "{}", outcome: .applied, app: "A", appVersion: 1))
    }
    if !records.isEmpty { try log.append(records) }
    var times: [Date] = []
    try log.forEachEntry { times.append($0.record.at) }
    #expect(times.count == count)
    for _ in 0..<60 {
      // An instant in tenths of a millisecond, kept as an integer so the model is exact.
      // Half of them a hair before, at or after an entry's own millisecond.
      let near = times.isEmpty || random.chance(50) ? nil : Int64((random.pick(times).timeIntervalSince1970 * 1000).rounded())
      let tenths = near.map { $0 * 10 + Int64(random.int(-9...9)) } ?? Int64(random.int(-60_000...(Int(milliseconds) * 10 + 20_000)))
      let asked = Date(timeIntervalSince1970: Double(tenths) / 10_000)
      // Entries are whole milliseconds: one is at or after the instant when its millisecond is
      // at least the instant's, rounded up.
      let askedMilliseconds = tenths >= 0 ? (tenths + 9) / 10 : -((-tenths) / 10)
      let scanned = times.firstIndex { Int64(($0.timeIntervalSince1970 * 1000).rounded()) >= askedMilliseconds }.map { Int64($0 + 1) }
      #expect(try log.firstSeq(atOrAfter: asked) == scanned, "seed \(seed), \(tenths) tenths of a ms")
    }
  }

  @Test func aReaderSeesWhatAnotherWriterAppended() throws {
    let fixture = LogFixture()
    let writer = try fixture.open()
    let reader = try fixture.open()
    #expect(try reader.storedLastSeq() == 0)
    try writer.append([
      LogRecord(client: "c", cseq: 1, at: Date(), user: "u", scope: "s", action: "{}", outcome: .applied, app: "A", appVersion: 1)
    ])
    #expect(reader.lastSeq == 0)
    #expect(try reader.storedLastSeq() == 1)
  }
}
