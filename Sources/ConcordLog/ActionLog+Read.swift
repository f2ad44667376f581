import Foundation
import GRDB

extension ActionLog {
  /// Calls `body` with each entry from `from` through `through` (the end of the log when nil),
  /// decrypted, in order. Entries are read one at a time, so memory stays flat however long the
  /// log is.
  ///
  /// Throws ``LogError/corruptEntry(seq:reason:)`` at the first entry that does not open or does
  /// not follow its predecessor.
  ///
  /// ```swift
  /// try log.forEachEntry(from: 1) { entry in state = reduce(state, entry.record) }
  /// ```
  public func forEachEntry(
    from: Int64 = 1, through: Int64? = nil, _ body: (LogEntry) throws -> Void
  ) throws {
    do {
      try database.read { db in try readEntries(db, from: from, through: through, body) }
    } catch let error as LogError {
      throw error
    } catch let error as DatabaseError {
      throw LogError.readFailed(path: path, reason: Self.describe(error))
    }
  }

  func readEntries(
    _ db: Database, from: Int64, through: Int64?, _ body: (LogEntry) throws -> Void
  ) throws {
    let first = max(from, 1)
    var previous: [UInt8]
    if first == 1 {
      previous = EntryCodec.genesis(logID: logID)
    } else {
      guard
        let data = try Data.fetchOne(db, sql: "SELECT hash FROM entries WHERE seq = ?", arguments: [first - 1])
      else { throw LogError.corruptEntry(seq: first - 1, reason: "it is missing") }
      previous = [UInt8](data)
    }
    let rows = try Row.fetchCursor(
      db,
      sql: """
        SELECT seq, at_ms, client, cseq, nonce, ciphertext, hash FROM entries
        WHERE seq >= ? AND seq <= ? ORDER BY seq
        """,
      arguments: [first, through ?? Int64.max])
    var expected = first
    while let row = try rows.next() {
      let entry = try openEntry(row, expectedSeq: expected, previous: previous)
      try body(entry)
      previous = entry.hash
      expected += 1
    }
  }

  /// Opens one row: checks its place, its seal and its link in the chain.
  func openEntry(_ row: Row, expectedSeq: Int64, previous: [UInt8]) throws(LogError) -> LogEntry {
    let (seq, at, client, cseq, hash, plaintext) = try checkEntry(row, expectedSeq: expectedSeq, previous: previous)
    guard let payload = EntryCodec.decode(plaintext) else {
      throw .corruptEntry(seq: seq, reason: "its payload is malformed")
    }
    let record = LogRecord(
      client: client, cseq: cseq, at: Date(milliseconds: at), user: payload.user,
      scope: payload.scope, action: payload.action, outcome: payload.outcome, app: payload.app,
      appVersion: payload.appVersion)
    return LogEntry(seq: seq, record: record, previousHash: previous, hash: hash, salt: payload.salt)
  }

  /// Checks one row's place, seal and chain link without decoding its payload; returns the
  /// clear fields, the stored hash and the plaintext. The row's blobs are read in place.
  func checkEntry(
    _ row: Row, expectedSeq: Int64, previous: [UInt8]
  ) throws(LogError) -> (seq: Int64, at: Int64, client: String, cseq: Int64, hash: [UInt8], plaintext: [UInt8]) {
    let seq: Int64 = row[0]
    guard seq == expectedSeq else {
      throw .corruptEntry(seq: expectedSeq, reason: "it is missing (the next entry is \(seq))")
    }
    let at: Int64 = row[1]
    let client: String = row[2]
    let cseq: Int64 = row[3]
    let associatedData = EntryCodec.associatedData(
      logID: logID, seq: seq, keyID: keys.keyID, previousHash: previous)
    let opened: [UInt8]?
    do {
      opened = try row.withUnsafeData(atIndex: 4) { nonce in
        try row.withUnsafeData(atIndex: 5) { ciphertext in
          guard let nonce, let ciphertext else { return nil }
          return nonce.withUnsafeBytes { nonce in
            ciphertext.withUnsafeBytes { ciphertext in
              Crypto.open(ciphertext, nonce: nonce, associatedData: associatedData, key: keys.entries)
            }
          }
        }
      }
    } catch {
      throw .corruptEntry(seq: seq, reason: "its row cannot be read")
    }
    guard let plaintext = opened else {
      throw .corruptEntry(seq: seq, reason: "its seal does not open (altered, moved or spliced)")
    }
    let hash = [UInt8](row[6] as Data)
    let expectedHash = EntryCodec.chainHash(
      previous: previous, seq: seq, atMilliseconds: at, client: client, cseq: cseq, payload: plaintext)
    guard Crypto.equal(expectedHash, hash) else {
      throw .corruptEntry(seq: seq, reason: "its chain hash does not match")
    }
    return (seq, at, client, cseq, hash, plaintext)
  }
}
