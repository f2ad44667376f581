import GRDB
import Testing

@testable import ConcordLog

/// The log's commits run in `Database.inKeptTransaction`, whose `BEGIN` and `COMMIT` are
/// statements kept from one commit to the next. It must keep what GRDB's `inTransaction`
/// promises: all of the body's rows, or none of them.
@Suite struct KeptTransactionTests {
  func database() throws -> DatabaseQueue {
    let queue = try DatabaseQueue()
    try queue.write { try $0.execute(sql: "CREATE TABLE rows (n INTEGER PRIMARY KEY)") }
    return queue
  }

  func rows(_ queue: DatabaseQueue) throws -> [Int] {
    try queue.read { try Int.fetchAll($0, sql: "SELECT n FROM rows ORDER BY n") }
  }

  @Test func aBodyThatFinishesIsCommittedAndTheStatementsAreKept() throws {
    let queue = try database()
    try queue.writeWithoutTransaction { db in
      for n in 1...3 {
        try db.inKeptTransaction { try db.execute(sql: "INSERT INTO rows VALUES (?)", arguments: [n]) }
      }
      #expect(!db.isInsideTransaction)
    }
    #expect(try rows(queue) == [1, 2, 3])
  }

  @Test func aBodyThatThrowsLeavesNothing() throws {
    struct Refused: Error {}
    let queue = try database()
    try queue.writeWithoutTransaction { db in
      #expect(throws: Refused.self) {
        try db.inKeptTransaction {
          try db.execute(sql: "INSERT INTO rows VALUES (1)")
          throw Refused()
        }
      }
      #expect(!db.isInsideTransaction)
      // A failed statement (a duplicate key) rolls the whole body back too.
      #expect(throws: DatabaseError.self) {
        try db.inKeptTransaction {
          try db.execute(sql: "INSERT INTO rows VALUES (2)")
          try db.execute(sql: "INSERT INTO rows VALUES (2)")
        }
      }
      #expect(!db.isInsideTransaction)
    }
    #expect(try rows(queue) == [])
  }

  /// A transaction SQLite ended under the body (as it may on a full disk) is not committed
  /// piecemeal: what the body wrote after it ran on its own is refused at the commit, and
  /// what it wrote before is gone.
  @Test func aTransactionEndedUnderTheBodyIsRefusedAtTheCommit() throws {
    let queue = try database()
    try queue.writeWithoutTransaction { db in
      #expect(throws: DatabaseError.self) {
        try db.inKeptTransaction {
          try db.execute(sql: "INSERT INTO rows VALUES (1)")
          try db.execute(sql: "ROLLBACK")
        }
      }
      #expect(!db.isInsideTransaction)
    }
    #expect(try rows(queue) == [])
  }
}
