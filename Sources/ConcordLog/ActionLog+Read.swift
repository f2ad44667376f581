import Foundation
import GRDB
import GRDBSQLite

extension ActionLog {
  /// Calls `body` with each entry from `from` through `through` (the end of the log when nil),
  /// decrypted, in order. Entries are read one at a time, so memory stays flat however long the
  /// log is.
  ///
  /// Throws ``LogError/corruptEntry(seq:reason:)`` at the first entry that does not open or does
  /// not follow its predecessor. An error `body` throws ends the walk and is rethrown as it is:
  /// it is the caller's, not a fault of the log.
  ///
  /// ```swift
  /// try log.forEachEntry(from: 1) { entry in state = reduce(state, entry.record) }
  /// ```
  public func forEachEntry(
    from: Int64 = 1, through: Int64? = nil, _ body: (LogEntry) throws -> Void
  ) throws {
    var callerError: (any Error)?
    do {
      try reading {
        try database.read { db in
          try readEntries(db, from: from, through: through) { entry in
            do {
              try body(entry)
            } catch {
              callerError = error
              throw error
            }
          }
        }
      }
    } catch {
      throw callerError ?? error
    }
  }

  func readEntries(
    _ db: Database, from: Int64, through: Int64?, _ body: (LogEntry) throws -> Void
  ) throws {
    do {
      try forEachCheckedEntry(db, from: from, through: through) { checked in
        guard let payload = EntryCodec.decode(checked.plaintext) else {
          throw LogError.corruptEntry(seq: checked.seq, reason: "its payload is malformed")
        }
        let record = LogRecord(
          client: checked.client, cseq: checked.cseq, at: Date(milliseconds: checked.at),
          user: payload.user, scope: payload.scope, action: payload.action, outcome: payload.outcome,
          app: payload.app, appVersion: payload.appVersion)
        try body(
          LogEntry(
            seq: checked.seq, record: record, previousHash: checked.previousHash, hash: checked.hash,
            salt: payload.salt))
      }
    } catch let failure as EntryFailure {
      throw LogError.corruptEntry(seq: failure.seq, reason: failure.fault.reason)
    }
  }

  /// The chain hash just before entry `seq`: the genesis hash for the first entry.
  func hash(before seq: Int64, _ db: Database) throws -> [UInt8] {
    guard seq > 1 else { return EntryCodec.genesis(logID: logID) }
    guard
      let data = try Data.fetchOne(db, sql: "SELECT hash FROM entries WHERE seq = ?", arguments: [seq - 1])
    else { throw LogError.corruptEntry(seq: seq - 1, reason: "it is missing") }
    return [UInt8](data)
  }

  /// Walks the rows from `from` through `through`, checking each one's place, seal and link in the
  /// chain without decoding its payload; throws ``EntryFailure`` at the first that fails. Reading
  /// and verifying both go through here.
  func forEachCheckedEntry(
    _ db: Database, from: Int64, through: Int64?, _ body: (CheckedEntry) throws -> Void
  ) throws {
    let first = max(from, 1)
    var previous = try hash(before: first, db)
    let statement = try db.makeStatement(
      sql: """
        SELECT seq, at_ms, CAST(client AS BLOB), cseq, nonce, ciphertext, hash FROM entries
        WHERE seq >= ? AND seq <= ? ORDER BY seq
        """)
    let rows = try Row.fetchCursor(statement, arguments: [first, through ?? Int64.max])
    var expected = first
    // One associated-data buffer for the whole walk: only its seq and previous hash change.
    var associatedData = entryAssociatedDataPrefix
    while let row = try rows.next() {
      let checked = try checkEntry(
        row, of: statement.sqliteStatement, expectedSeq: expected, previous: previous, associatedData: &associatedData)
      try body(checked)
      previous = checked.hash
      expected += 1
    }
  }

  /// Checks one row (the current one of `statement`); its blobs are read in place, straight from
  /// SQLite's statement: GRDB's
  /// generic readers cost more per entry than opening its seal does.
  private func checkEntry(
    _ row: Row, of statement: SQLiteStatement, expectedSeq: Int64, previous: [UInt8], associatedData: inout [UInt8]
  ) throws(EntryFailure) -> CheckedEntry {
    let seq: Int64 = row[0]
    guard seq == expectedSeq else { throw EntryFailure(seq: expectedSeq, fault: .missing(next: seq)) }
    let at: Int64 = row[1]
    let client = ExactText.string(from: row[2])
    let cseq: Int64 = row[3]
    EntryCodec.replaceAssociatedData(
      of: &associatedData, prefixCount: entryAssociatedDataPrefix.count, seq: seq, previousHash: previous)
    guard let nonce = Self.blob(statement, 4), let ciphertext = Self.blob(statement, 5),
      let plaintext = Crypto.open(ciphertext, nonce: nonce, associatedData: associatedData, key: keys.entries)
    else { throw EntryFailure(seq: seq, fault: .badSeal) }
    let hash = EntryCodec.chainHash(
      previous: previous, seq: seq, atMilliseconds: at, client: client, cseq: cseq, payload: plaintext)
    // The stored hash is compared where it lies, without copying it out of the row.
    guard let stored = Self.blob(statement, 6), Crypto.equal(hash, stored) else {
      throw EntryFailure(seq: seq, fault: .brokenChain)
    }
    return CheckedEntry(
      seq: seq, at: at, client: client, cseq: cseq, previousHash: previous, hash: hash, plaintext: plaintext)
  }

  /// Column `index` of the statement's current row as bytes in SQLite's memory, valid until the
  /// statement steps; nil for NULL (SQLite gives an empty blob as NULL too).
  private static func blob(_ statement: SQLiteStatement, _ index: Int32) -> UnsafeRawBufferPointer? {
    guard let bytes = sqlite3_column_blob(statement, index) else { return nil }
    return UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, index)))
  }
}

/// A stored entry whose place, seal and chain link were checked; its payload is still encoded.
struct CheckedEntry {
  let seq: Int64
  let at: Int64
  let client: String
  let cseq: Int64
  let previousHash: [UInt8]
  let hash: [UInt8]
  let plaintext: [UInt8]
}

/// The first stored entry that cannot be trusted, and why.
struct EntryFailure: Error {
  enum Fault {
    /// The entry is not there; the next one is `next`.
    case missing(next: Int64)
    /// The seal does not open: altered, moved or spliced.
    case badSeal
    /// The seal opens but the chain hash does not follow.
    case brokenChain

    var reason: String {
      switch self {
      case let .missing(next): return "it is missing (the next entry is \(next))"
      case .badSeal: return "its seal does not open (altered, moved or spliced)"
      case .brokenChain: return "its chain hash does not match"
      }
    }
  }

  let seq: Int64
  let fault: Fault
}

extension ActionLog {
  /// The highest cseq each client has in the log: what a host needs to recognise retries. One
  /// pair per client id as SQLite compares them, byte for byte — not a dictionary keyed by
  /// `String`, which would take two canonically equivalent ids for one.
  ///
  /// Read from the `(client, cseq)` index by skipping from one client to the next (a loose
  /// index scan, which SQLite does not do by itself for `GROUP BY`): a few lookups per client
  /// rather than a pass over every entry, which a boot of a long log without a snapshot felt.
  public func highestCseqByClient() throws(LogError) -> [(client: String, cseq: Int64)] {
    try reading {
      try database.read { db in
        var highest: [(client: String, cseq: Int64)] = []
        let rows = try Row.fetchCursor(db, sql: Self.highestCseqByClientSQL)
        while let row = try rows.next() { highest.append((ExactText.string(from: row[0]), row[1])) }
        return highest
      }
    }
  }

  /// Each client in the index's order, the next found as the least greater than the last, with
  /// its greatest cseq.
  private static let highestCseqByClientSQL = """
    WITH RECURSIVE clients(client) AS (
      SELECT (SELECT client FROM entries ORDER BY client LIMIT 1)
      UNION ALL
      SELECT (SELECT client FROM entries WHERE client > clients.client ORDER BY client LIMIT 1)
      FROM clients WHERE clients.client IS NOT NULL
    )
    SELECT CAST(client AS BLOB), (SELECT MAX(cseq) FROM entries WHERE entries.client = clients.client)
    FROM clients WHERE client IS NOT NULL
    """
}
