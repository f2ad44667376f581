import ConcordLog
import Foundation
import Testing

/// The `-wal` file beside the database holds the newest entries until SQLite moves them into the
/// database file. Losing it (deleted by hand, not copied by a backup) must never lose entries
/// silently.
@Suite struct LostWALTests {
  @Test func afterACleanCloseTheDatabaseFileAloneHoldsTheWholeLog() throws {
    let fixture = LogFixture()
    let log = try fixture.open()
    try log.append((1...50).map { record($0) })
    try log.close()
    // Copied before the log is let go (SQLite would empty the WAL on the last close by itself):
    // the database file, its checkpoint file and the key, without the WAL, as a daemon's home
    // is after a clean stop.
    let copy = LogFixture()
    for suffix in ["", ".checkpoint"] {
      try FileManager.default.copyItem(
        atPath: fixture.databaseURL.path + suffix, toPath: copy.databaseURL.path + suffix)
    }
    try FileManager.default.copyItem(at: fixture.keyURL, to: copy.keyURL)
    let reopened = try copy.open()
    #expect(reopened.lastSeq == 50)
    #expect(reopened.logID == log.logID)
    #expect(try reopened.verify().isSound)
  }

  @Test func aLogWhoseWALWasLostAfterACrashIsRefusedNotReplaced() throws {
    let fixture = LogFixture()
    let log = try fixture.open(options: .init(checkpointInterval: 16))
    try log.append((1...40).map { record($0) })
    // A crash: no close. What survives is the database file without its WAL, the key, and the
    // checkpoint file beside it, which vouches for entry 40.
    let copy = LogFixture()
    for suffix in ["", ".checkpoint"] {
      try FileManager.default.copyItem(
        atPath: fixture.databaseURL.path + suffix, toPath: copy.databaseURL.path + suffix)
    }
    try FileManager.default.copyItem(at: fixture.keyURL, to: copy.keyURL)
    #expect {
      _ = try copy.open()
    } throws: { error in
      "\(error)".contains("truncated tail") && "\(error)".contains("vouches for entry 40")
    }
    // Nothing was created over the evidence: the checkpoint file is still the old log's.
    let after = try String(contentsOfFile: copy.databaseURL.path + ".checkpoint", encoding: .utf8)
    #expect(after.contains(log.logID.map { String(format: "%02x", $0) }.joined()))
  }
}
