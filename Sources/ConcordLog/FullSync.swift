import GRDB

/// Makes a database's commits survive a power loss, not only a crash of the process.
///
/// GRDB opens WAL databases (every `DatabasePool`, and a `DatabaseQueue` configured for WAL) with
/// `PRAGMA synchronous = NORMAL`, set after `Configuration.prepareDatabase` has run, so a
/// `synchronous = FULL` made there does not last: a commit is then synced to disk only at the
/// next WAL checkpoint. Call this on the opened database instead; it sets `FULL` on the writing
/// connection (the one connection that commits) and reads it back.
///
/// ```swift
/// let pool = try DatabasePool(path: path, configuration: configuration)
/// try FullSync.require(on: pool)
/// ```
public enum FullSync {
  /// The connection did not take `synchronous = FULL`.
  public struct NotTaken: Error, CustomStringConvertible {
    /// The level the connection reports instead (0 OFF, 1 NORMAL, 3 EXTRA), if any.
    public let level: Int?

    public var description: String {
      "synchronous = FULL did not take (the connection reports \(level.map(String.init) ?? "nothing")): commits would not be durable"
    }
  }

  /// Sets `synchronous = FULL` on `database`'s writing connection, or throws ``NotTaken`` when
  /// it does not take.
  public static func require(on database: some DatabaseWriter) throws {
    let level = try database.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA synchronous = FULL")
      return try Int.fetchOne(db, sql: "PRAGMA synchronous")
    }
    guard level == 2 else { throw NotTaken(level: level) }
  }
}
