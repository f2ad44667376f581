import Foundation
import GRDB

extension ActionLog {
  /// Appends `records` in one transaction and returns once they are durable.
  ///
  /// Each record gets the next seq and is sealed and chained. A record whose `(client, cseq)` is
  /// already in the log (from an earlier batch or earlier in this one) is not written again: its
  /// result is the original entry, marked ``Appended/isDuplicate``.
  ///
  /// When the write fails (a full disk, a read-only file, an I/O error), the whole batch is
  /// rolled back, the log is exactly as it was, and ``LogError/writeFailed(path:reason:)`` is
  /// thrown. The log stays appendable once the cause is gone.
  ///
  /// ```swift
  /// let results = try log.append(batch)
  /// for result in results { ack(result.entry.record.client, result.entry.seq) }
  /// ```
  @discardableResult
  public func append(_ records: [LogRecord]) throws(LogError) -> [Appended] {
    guard !records.isEmpty else { return [] }
    let start = tail.withLock { $0 }
    let entriesKey = keys.entries
    var results: [Appended] = []
    var end = start
    try writing {
      try database.write { db in
        results.removeAll(keepingCapacity: true)
        end = start
        let insert = try db.cachedStatement(
          sql: """
            INSERT OR IGNORE INTO entries (seq, at_ms, client, cseq, nonce, ciphertext, hash)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        // One call to the system's generator for the whole batch: a salt and a nonce per record.
        let perRecord = EntryCodec.saltBytes + Crypto.nonceBytes
        let random = Crypto.randomBytes(records.count * perRecord)
        for (index, record) in records.enumerated() {
          let seq = end.seq + 1
          let salt = Array(random[index * perRecord..<index * perRecord + EntryCodec.saltBytes])
          let nonce = Data(random[index * perRecord + EntryCodec.saltBytes..<(index + 1) * perRecord])
          let payload = EntryCodec.encode(
            EntryCodec.Payload(
              salt: salt, user: record.user, scope: record.scope, action: record.action,
              outcome: record.outcome, app: record.app, appVersion: record.appVersion))
          let at = record.at.milliseconds
          let hash = EntryCodec.chainHash(
            previous: end.head, seq: seq, atMilliseconds: at, client: record.client,
            cseq: record.cseq, payload: payload)
          let associatedData = EntryCodec.associatedData(
            prefix: entryAssociatedDataPrefix, seq: seq, previousHash: end.head)
          let ciphertext = payload.withUnsafeBytes { payload in
            nonce.withUnsafeBytes { nonce in
              Crypto.seal(payload, nonce: nonce, associatedData: associatedData, key: entriesKey)
            }
          }
          try insert.execute(arguments: [seq, at, record.client, record.cseq, nonce, ciphertext, Data(hash)])
          if db.changesCount == 0 {
            guard let original = try entry(db, client: record.client, cseq: record.cseq) else {
              throw LogError.writeFailed(path: path, reason: "entry \(seq) could not be written")
            }
            results.append(Appended(entry: original, isDuplicate: true))
            continue
          }
          results.append(
            Appended(
              entry: LogEntry(seq: seq, record: record, previousHash: end.head, hash: hash, salt: salt),
              isDuplicate: false))
          end.seq = seq
          end.head = hash
        }
      }
    }
    tail.withLock {
      $0.seq = end.seq
      $0.head = end.head
    }
    if end.seq - end.checkpointedSeq >= options.checkpointInterval {
      try checkpoint()
    }
    return results
  }

  /// The entry a client sent as `cseq`, when the log holds it.
  public func entry(client: String, cseq: Int64) throws(LogError) -> LogEntry? {
    try reading { try database.read { db in try entry(db, client: client, cseq: cseq) } }
  }

  func entry(_ db: Database, client: String, cseq: Int64) throws -> LogEntry? {
    guard
      let seq = try Int64.fetchOne(
        db, sql: "SELECT seq FROM entries WHERE client = ? AND cseq = ?", arguments: [client, cseq])
    else { return nil }
    var found: LogEntry?
    try readEntries(db, from: seq, through: seq) { found = $0 }
    return found
  }
}
