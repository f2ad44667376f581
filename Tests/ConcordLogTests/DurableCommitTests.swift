import GRDB
import Testing

@testable import ConcordLog

/// `append` returns once its batch is on disk.
@Suite struct DurableCommitTests {
  @Test func everyCommitIsSyncedToDiskNotOnlyAtWALCheckpoints() throws {
    // GRDB opens a pool with synchronous = NORMAL, under which a commit survives a crash of the
    // process but not a power loss: the log sets FULL on the connection that commits.
    let log = try LogFixture().open()
    let level = try log.database.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
    #expect(level == 2)
  }
}
