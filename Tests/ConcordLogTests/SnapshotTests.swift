import ConcordLog
import Foundation
import Testing

@Suite struct SnapshotTests {
  struct Board: Codable, Equatable, Sendable {
    var cards: [String]
  }

  let app = AppVersion(name: "board", version: 2)

  @Test func theNewestSoundSnapshotIsLoadedAndACorruptOneIsPassedOver() throws {
    let fixture = LogFixture()
    let log = try fixture.open()
    try log.append((1...30).map { record($0) })
    try log.saveSnapshot(Board(cards: ["a"]), at: 10, by: app)
    try log.saveSnapshot(Board(cards: ["a", "b"]), at: 20, by: app)
    try log.saveSnapshot(Board(cards: ["a", "b", "c"]), at: 30, by: app)
    #expect(try log.newestSnapshot(of: Board.self, by: app)?.state == Board(cards: ["a", "b", "c"]))

    var ciphertext = [UInt8](try fixture.rawValue("SELECT ciphertext FROM snapshots WHERE seq = 30")!)
    ciphertext[0] ^= 0xff
    try fixture.tamper("UPDATE snapshots SET ciphertext = ? WHERE seq = 30", arguments: [Data(ciphertext)])
    let loaded = try #require(try log.newestSnapshot(of: Board.self, by: app))
    #expect(loaded.seq == 20)
    #expect(loaded.state == Board(cards: ["a", "b"]))
    #expect(loaded.skipped.map(\.seq) == [30])
  }

  @Test func aSnapshotMovedToAnotherSeqOrBeyondTheLogIsNeverUsed() throws {
    let fixture = LogFixture()
    let log = try fixture.open()
    try log.append((1...10).map { record($0) })
    try log.saveSnapshot(Board(cards: ["x"]), at: 5, by: app)
    try fixture.tamper("UPDATE snapshots SET seq = 8 WHERE seq = 5")
    try log.saveSnapshot(Board(cards: ["future"]), at: 99, by: app)
    // Neither opens as a snapshot at its place: the caller replays the whole log instead.
    #expect(try log.newestSnapshot(of: Board.self, by: app) == nil)
  }

  /// A snapshot caches one app version's fold of the log; another version folds the same
  /// entries its own way (a migrated date, a changed rule), so it never starts from it.
  @Test func aSnapshotTakenByAnotherAppVersionIsPassedOverWithTheReason() throws {
    let fixture = LogFixture()
    let log = try fixture.open()
    try log.append((1...10).map { record($0) })
    try log.saveSnapshot(Board(cards: ["folded by version 2"]), at: 4, by: app)
    try log.saveSnapshot(Board(cards: ["folded by version 1"]), at: 8, by: AppVersion(name: "board", version: 1))
    try log.saveSnapshot(Board(cards: ["folded by another app"]), at: 9, by: AppVersion(name: "chess", version: 2))
    let loaded = try #require(try log.newestSnapshot(of: Board.self, by: app))
    #expect(loaded.state == Board(cards: ["folded by version 2"]))
    #expect(loaded.skipped.map(\.seq) == [9, 8])
    #expect(loaded.skipped.allSatisfy { $0.reason.contains("board version 2") })
  }
}

extension LoadedSnapshot: Equatable where State: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.seq == rhs.seq && lhs.state == rhs.state }
}
