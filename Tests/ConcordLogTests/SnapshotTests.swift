import ConcordLog
import Foundation
import Testing

@Suite struct SnapshotTests {
  struct Board: Codable, Equatable, Sendable {
    var cards: [String]
  }

  @Test func theNewestSoundSnapshotIsLoadedAndACorruptOneIsPassedOver() throws {
    let fixture = LogFixture()
    let log = try fixture.open()
    try log.append((1...30).map { record($0) })
    try log.saveSnapshot(Board(cards: ["a"]), at: 10)
    try log.saveSnapshot(Board(cards: ["a", "b"]), at: 20)
    try log.saveSnapshot(Board(cards: ["a", "b", "c"]), at: 30)
    #expect(try log.newestSnapshot(of: Board.self)?.state == Board(cards: ["a", "b", "c"]))

    var ciphertext = [UInt8](try fixture.rawValue("SELECT ciphertext FROM snapshots WHERE seq = 30")!)
    ciphertext[0] ^= 0xff
    try fixture.tamper("UPDATE snapshots SET ciphertext = ? WHERE seq = 30", arguments: [Data(ciphertext)])
    let loaded = try #require(try log.newestSnapshot(of: Board.self))
    #expect(loaded.seq == 20)
    #expect(loaded.state == Board(cards: ["a", "b"]))
    #expect(loaded.skipped.map(\.seq) == [30])
  }

  @Test func aSnapshotMovedToAnotherSeqOrBeyondTheLogIsNeverUsed() throws {
    let fixture = LogFixture()
    let log = try fixture.open()
    try log.append((1...10).map { record($0) })
    try log.saveSnapshot(Board(cards: ["x"]), at: 5)
    try fixture.tamper("UPDATE snapshots SET seq = 8 WHERE seq = 5")
    try log.saveSnapshot(Board(cards: ["future"]), at: 99)
    // Neither opens as a snapshot at its place: the caller replays the whole log instead.
    #expect(try log.newestSnapshot(of: Board.self) == nil)
  }
}

extension LoadedSnapshot: Equatable where State: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.seq == rhs.seq && lhs.state == rhs.state }
}
