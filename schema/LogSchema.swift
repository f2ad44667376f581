/// The SQL of the log database, as versioned migrations applied in order.
///
/// The files live in `schema/log/`, one per version; they are embedded in the binary at build
/// time, so a running daemon never reads SQL from disk.
public enum LogSchema {
  /// One migration: a name that never changes once released, and the SQL it runs.
  public struct Migration: Sendable {
    public let name: String
    public let sql: String
  }

  /// Every migration, oldest first.
  public static let migrations: [Migration] = [
    Migration(name: "v1-initial", sql: String(decoding: PackageResources.v1_initial_sql, as: UTF8.self))
  ]
}
