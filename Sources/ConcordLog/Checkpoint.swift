import Foundation
import GRDB

/// A signed statement that the log held `seq` entries with chain head `head`.
///
/// Checkpoints are kept in the database and the latest one also in a file beside it: a tail cut
/// off the database cannot take the outside checkpoint with it.
public struct Checkpoint: Sendable, Equatable {
  public let seq: Int64
  public let head: [UInt8]
  /// Ed25519 over `concord.checkpoint.v1 ‖ log id ‖ seq ‖ head`.
  public let signature: [UInt8]

  /// True when `publicKey` signed this checkpoint for the log `logID`.
  public func isSigned(by publicKey: [UInt8], logID: [UInt8]) -> Bool {
    Crypto.verify(
      signature: signature,
      message: EntryCodec.checkpointMessage(logID: logID, seq: seq, head: head),
      publicKey: publicKey)
  }

  /// The one-line JSON form kept in the file beside the database (one of its two slots).
  func fileLine(logID: [UInt8]) -> String {
    #"{"log_id":"\#(logID.hex)","seq":\#(seq),"head":"\#(head.hex)","signature":"\#(signature.hex)"}"# + "\n"
  }

  /// Reads the file form; nil when it is not one.
  static func parse(fileLine bytes: [UInt8]) -> (logID: [UInt8], checkpoint: Checkpoint)? {
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
      let logID = (object["log_id"] as? String).flatMap({ [UInt8](hex: $0) }),
      let seq = (object["seq"] as? NSNumber)?.int64Value,
      let head = (object["head"] as? String).flatMap({ [UInt8](hex: $0) }),
      let signature = (object["signature"] as? String).flatMap({ [UInt8](hex: $0) })
    else { return nil }
    return (logID, Checkpoint(seq: seq, head: head, signature: signature))
  }
}

extension ActionLog {
  /// Signs the current head, stores the checkpoint and writes it beside the database. The daemon
  /// calls it every ``Options/checkpointInterval`` entries (through `append`) and at shutdown
  /// (through ``close()``).
  public func checkpoint() throws(LogError) {
    // In the writer's turn: two threads checkpointing at once write the file one after the
    // other, and an older checkpoint never replaces a newer one.
    try writing {
      try database.writeWithoutTransaction { db in
        let current = tail.withLock { $0 }
        guard current.seq > 0, current.seq > current.checkpointedSeq else {
          // The head is checkpointed in the database already; the file may still lack it.
          if let unwritten = current.unwrittenCheckpoint { try writeCheckpointFile(unwritten.checkpoint) }
          return
        }
        let checkpoint = try signedCheckpoint(seq: current.seq, head: current.head)
        try store(checkpoint, in: db)
        tail.withLock { $0.checkpointedSeq = max($0.checkpointedSeq, checkpoint.seq) }
        try publish(checkpoint)
      }
    }
  }

  /// A new log's checkpoint file, vouching for no entries yet (seq 0, the genesis hash): from
  /// its first entry on, a log has a checkpoint file beside it, so a missing one always means
  /// something happened to it (``verify(withoutCheckpointFile:witnessed:progress:)`` fails then).
  func writeGenesisCheckpoint() throws(LogError) {
    // Only in the file: the database's checkpoints vouch for entries, and this one for none.
    try publish(try signedCheckpoint(seq: 0, head: EntryCodec.genesis(logID: logID)))
  }

  /// A new checkpoint leaves the database: told to ``Options/onCheckpoint`` (a copy outside the
  /// home), then written to the file beside the log. A retry of a file write that failed is
  /// ``writeCheckpointFile(_:)`` alone: the checkpoint was told already.
  func publish(_ checkpoint: Checkpoint) throws(LogError) {
    options.onCheckpoint?(checkpoint)
    try writeCheckpointFile(checkpoint)
  }

  /// Inserts `checkpoint` into the database.
  func store(_ checkpoint: Checkpoint, in db: Database) throws {
    try db.execute(
      sql: "INSERT OR REPLACE INTO checkpoints (seq, head, signature) VALUES (?, ?, ?)",
      arguments: [checkpoint.seq, Data(checkpoint.head), Data(checkpoint.signature)])
  }

  /// Writes `checkpoint`, which the database holds already, to the file beside it; call it in
  /// the writer's turn, so an older checkpoint never replaces a newer one. A failure is kept in
  /// ``checkpointFileFailure`` until a later write succeeds.
  func writeCheckpointFile(_ checkpoint: Checkpoint) throws(LogError) {
    do {
      try CheckpointFile.write(checkpoint, logID: logID, to: checkpointFile.path)
      tail.withLock { $0.unwrittenCheckpoint = nil }
    } catch {
      tail.withLock { $0.unwrittenCheckpoint = (checkpoint, error) }
      throw error
    }
  }

  /// Writes a final checkpoint and moves everything the WAL holds into the database file. Call
  /// it at clean shutdown; the log may still be used afterwards.
  ///
  /// After a clean stop the database file alone holds the whole log: a `-wal` file deleted or
  /// lost while the daemon is stopped takes nothing with it.
  public func close() throws(LogError) {
    try checkpoint()
    try writing {
      try database.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
    }
  }

  /// The checkpoints in the database, oldest first.
  public func checkpoints() throws(LogError) -> [Checkpoint] {
    try reading {
      try database.read { db in
        try Row.fetchAll(db, sql: "SELECT seq, head, signature FROM checkpoints ORDER BY seq").map {
          Checkpoint(seq: $0[0], head: [UInt8]($0[1] as Data), signature: [UInt8]($0[2] as Data))
        }
      }
    }
  }
}
