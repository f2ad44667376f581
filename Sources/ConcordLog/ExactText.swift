import Foundation

/// Text that goes to SQLite and comes back byte for byte.
///
/// GRDB binds a `String` as a C string (`sqlite3_bind_text` with length -1) and reads one with
/// `String(cString:)`, so a NUL inside the text would cut it: the database would hold less than
/// the chain hash covers. The log's text columns are therefore written and read as bytes: the
/// value is bound as a blob and turned into text by SQLite (`CAST(? AS TEXT)` keeps every
/// byte, NULs included), and read back as a blob (`CAST(client AS BLOB)`). Whatever UTF-8 a
/// caller hands the log is what SQLite stores, compares and returns.
///
/// ```swift
/// try db.execute(sql: "... WHERE client = CAST(? AS TEXT)", arguments: [ExactText.bytes(of: client)])
/// let client = ExactText.string(from: row[2])    // the row selected CAST(client AS BLOB)
/// ```
enum ExactText {
  /// The argument to bind where the SQL says `CAST(? AS TEXT)`.
  static func bytes(of text: String) -> Data { Data(text.utf8) }

  /// The text of a column selected `CAST(… AS BLOB)`; SQLite gives an empty blob as NULL.
  static func string(from bytes: Data?) -> String { String(decoding: bytes ?? Data(), as: UTF8.self) }
}
