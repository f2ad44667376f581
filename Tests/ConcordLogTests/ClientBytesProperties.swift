import ConcordLog
import Foundation
import PropertyRandom
import Testing

/// The log is a library: whatever text a caller gives as a client id, SQLite must keep as the
/// same bytes the chain hash covers. Random ids — NUL inside, controls, canonically equivalent
/// spellings (which Swift's `==` calls equal and SQLite does not), emoji, long — are appended,
/// then read back, looked up and counted, against a model keyed by the ids' UTF-8 bytes.
@Suite struct ClientBytesProperties {
  static let pieces = ["a", "\u{0}", "\u{1}", "caf\u{E9}", "cafe\u{301}", "\u{212B}", "\u{C5}", "👩‍👩‍👧", "漢", "-", " "]

  @Test func clientIDsRoundTripThroughTheLogByteForByte() throws {
    let fixture = LogFixture()
    let log = try fixture.open()
    var model: [[UInt8]: Int64] = [:]  // highest cseq by the id's bytes
    var records: [LogRecord] = []
    for seed in PropertyRandom.seeds(from: 0xC11E_0000, count: 120) {
      var random = PropertyRandom(seed: seed)
      var client = ""
      for _ in 0..<random.int(0...6) { client += random.pick(Self.pieces) }
      if random.chance(5) { client = String(repeating: "x", count: 100_000) }
      let cseq = (model[Array(client.utf8)] ?? 0) + 1
      model[Array(client.utf8)] = cseq
      records.append(
        LogRecord(
          client: client, cseq: cseq, at: Date(), user: "u", scope: "s", action: "{}", outcome: .applied, app: "t",
          appVersion: 1))
    }
    let appended = try log.append(records)
    #expect(appended.allSatisfy { !$0.isDuplicate }, "two spellings were taken for one client")

    // Read back in order: the same bytes as appended.
    var read: [[UInt8]] = []
    try log.forEachEntry { read.append(Array($0.record.client.utf8)) }
    #expect(read == records.map { Array($0.client.utf8) })
    // Looked up by the same bytes, found; the highest cseqs are the model's.
    for record in records {
      #expect(try log.entry(client: record.client, cseq: record.cseq)?.record.client.utf8.elementsEqual(record.client.utf8) == true)
    }
    let highest = try log.highestCseqByClient()
    #expect(highest.count == model.count)
    #expect(Dictionary(highest.map { (Array($0.client.utf8), $0.cseq) }, uniquingKeysWith: { _, _ in -1 }) == model)
    #expect(try log.verify().isSound)
  }
}
