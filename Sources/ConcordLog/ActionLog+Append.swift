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
  /// thrown. The log stays appendable once the cause is gone. A checkpoint due after the batch
  /// is stored in the batch's own commit; one that cannot be signed, or whose file cannot be
  /// written, does not fail the batch (a file that cannot be written is reported by
  /// ``checkpointFileFailure``; a checkpoint that cannot be signed is tried again at the next).
  ///
  /// ```swift
  /// let results = try log.append(batch)
  /// for result in results { ack(result.entry.record.client, result.entry.seq) }
  /// ```
  @discardableResult
  public func append(_ records: [LogRecord]) throws(LogError) -> [Appended] {
    guard !records.isEmpty else { return [] }
    // A salt and a nonce per record, and the memory the rows are sealed into: none of it
    // depends on the chain position, so it is made before the writer's turn.
    let batch = SealedBatch(records)
    return try writing {
      // The tail is read and moved inside the writer's turn, after the commit: appends from
      // several threads take their seqs one batch after another.
      try database.writeWithoutTransaction { db in
        var written: ([Appended], Tail) = ([], tail.withLock { $0 })
        // Started before the transaction: the sealing thread wakes while SQLite takes its lock.
        var pipeline =
          records.count >= SealingPipeline.minimumBatch
          ? SealingPipeline(records: records, batch: batch, sealer: entrySealer(after: written.1))
          : nil
        defer { pipeline?.finish() }
        var due: Checkpoint?
        try db.inKeptTransaction {
          written = try insert(records, into: batch, sealedBy: &pipeline, after: written.1, in: db)
          let end = written.1
          if end.seq - end.checkpointedSeq >= options.checkpointInterval {
            // Signed and stored in the batch's own commit: a checkpoint costs no commit of its
            // own. One that cannot be signed must not fail the batch; the next one tries again.
            due = try? signedCheckpoint(seq: end.seq, head: end.head)
            if let due {
              try store(due, in: db)
              written.1.checkpointedSeq = due.seq
            }
          }
        }
        tail.withLock { $0 = written.1 }
        // The batch is durable already: a checkpoint file that cannot be written now (a full
        // disk) must not make it look lost. It is remembered; the next checkpoint, and
        // `close()`, try again.
        if let due { try? publish(due) }
        return written.0
      }
    }
  }

  /// A sealer that chains entries after `tail`.
  private func entrySealer(after tail: Tail) -> EntrySealer {
    EntrySealer(key: keys.entries, associatedDataPrefix: entryAssociatedDataPrefix, after: tail.seq, head: tail.head)
  }

  /// Seals and inserts `records` after `start`, inside the caller's transaction, taking the rows
  /// `pipeline` seals when there is one (and finishing it at a duplicate).
  private func insert(
    _ records: [LogRecord], into batch: SealedBatch, sealedBy pipeline: inout SealingPipeline?,
    after start: Tail, in db: Database
  ) throws -> ([Appended], Tail) {
    let insert = try db.cachedStatement(
      sql: """
        INSERT OR IGNORE INTO entries (seq, at_ms, client, cseq, nonce, ciphertext, hash)
        VALUES (?, ?, CAST(? AS TEXT), ?, ?, ?, ?)
        """)
    // The caller's own sealer, made only when it seals: with no pipeline, or after a duplicate.
    var sealer = pipeline == nil ? entrySealer(after: start) : nil
    var results: [Appended] = []
    results.reserveCapacity(records.count)
    var end = start
    for (index, record) in records.enumerated() {
      // Every row is sealed as the entry after `end`: the pipeline ran from `start` and stops at
      // the first duplicate, and the caller's sealer starts again from `end` there.
      let seq = end.seq + 1
      if let pipeline {
        pipeline.waitForRow(index)
      } else {
        batch.seal(index, record, with: &sealer!)
      }
      try insert.execute(arguments: batch.insertArguments(for: record, seq: seq, at: index))
      if db.changesCount == 0 {
        guard let original = try entry(db, client: record.client, cseq: record.cseq) else {
          throw LogError.writeFailed(path: path, reason: "entry \(seq) could not be written")
        }
        results.append(Appended(entry: original, isDuplicate: true))
        // The rows sealed after this one assumed it took a seq: seal the rest here, from the
        // position actually reached.
        pipeline?.finish()
        pipeline = nil
        sealer = entrySealer(after: end)
        continue
      }
      let hash = batch.hash(of: index)
      let entry = LogEntry(seq: seq, record: record, previousHash: end.head, hash: hash, salt: batch.salt(of: index))
      results.append(Appended(entry: entry, isDuplicate: false))
      end.seq = seq
      end.head = hash
    }
    return (results, end)
  }

  /// The entry a client sent as `cseq`, when the log holds it.
  public func entry(client: String, cseq: Int64) throws(LogError) -> LogEntry? {
    try reading { try database.read { db in try entry(db, client: client, cseq: cseq) } }
  }

  /// The first entry a client sent (its lowest cseq): who that client is, for a host that keys
  /// exactly-once by account as well.
  public func firstEntry(client: String) throws(LogError) -> LogEntry? {
    try reading {
      try database.read { db in
        try entry(
          db,
          seq: Int64.fetchOne(
            db, sql: "SELECT seq FROM entries WHERE client = CAST(? AS TEXT) ORDER BY cseq LIMIT 1",
            arguments: [ExactText.bytes(of: client)]))
      }
    }
  }

  func entry(_ db: Database, client: String, cseq: Int64) throws -> LogEntry? {
    try entry(
      db,
      seq: Int64.fetchOne(
        db, sql: "SELECT seq FROM entries WHERE client = CAST(? AS TEXT) AND cseq = ?",
        arguments: [ExactText.bytes(of: client), cseq]))
  }

  /// The entry at `seq`, read and checked; nil for no seq.
  private func entry(_ db: Database, seq: Int64?) throws -> LogEntry? {
    guard let seq else { return nil }
    var found: LogEntry?
    try readEntries(db, from: seq, through: seq) { found = $0 }
    return found
  }
}
