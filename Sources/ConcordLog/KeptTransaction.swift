import GRDB

extension Database {
  /// Runs `body` in an `IMMEDIATE` transaction whose `BEGIN`, `COMMIT` and `ROLLBACK` are
  /// statements prepared once and kept with the connection.
  ///
  /// GRDB's `inTransaction` prepares its `BEGIN` and `COMMIT` again every time: with one action
  /// per commit that was about 18 k instructions of the commit thread's 102 k per action
  /// (callgrind). This keeps GRDB's rules: the transaction is rolled back when `body` or the
  /// commit throws, unless SQLite already ended it (a full disk can); a transaction SQLite ended
  /// under `body` is not committed piecemeal; a `ROLLBACK` that fails is retried by GRDB's own.
  ///
  /// `body` must let database errors through: one it swallowed could leave later statements
  /// running outside the transaction, which is then refused at the commit.
  ///
  /// ```swift
  /// try db.inKeptTransaction { try insert.execute(arguments: row) }
  /// ```
  func inKeptTransaction<Result>(_ body: () throws -> Result) throws -> Result {
    try cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
    do {
      let result = try body()
      guard isInsideTransaction else {
        throw DatabaseError(resultCode: .SQLITE_ABORT, message: "the transaction was rolled back before its commit")
      }
      try cachedStatement(sql: "COMMIT TRANSACTION").execute()
      return result
    } catch {
      if isInsideTransaction {
        do { try cachedStatement(sql: "ROLLBACK TRANSACTION").execute() } catch { try? rollback() }
      }
      throw error
    }
  }
}
