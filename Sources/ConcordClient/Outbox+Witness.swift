import ConcordWire
import Foundation
import GRDB

/// The outbox as a witness of the daemon's log: the highest `(log id, seq)` any window or
/// command of this home was shown (a welcome, a snapshot, an update) or answered with (an ack, a
/// refusal), kept sealed like everything else in the file. ``LogDivergence`` compares a daemon
/// with it.
///
/// It only ever rises, along one log; only a person moves it elsewhere (``adopt(_:)``, from
/// `concord outbox sync --force` or `--accept-rollback`). Raising it is not synced to disk: a
/// power cut can only make it lower, so it may miss a rollback, never report a false one.
extension Outbox {
  /// What this home had witnessed at one moment: taken before connecting, to compare the
  /// daemon's welcome with (``OutboxSync/run(_:over:force:acceptRollback:witnessedBefore:attached:other:shownHere:onResult:)``).
  /// Read after the welcome instead, it may hold an entry another window of the home was
  /// answered with since — which is no rollback.
  ///
  /// ```swift
  /// let before = try outbox.witnessSnapshot()
  /// let connection = try ClientConnection(address: address, presence: false)
  /// let report = try OutboxSync.run(outbox, over: connection, witnessedBefore: before)
  /// ```
  public struct WitnessSnapshot: Sendable {
    /// The highest `(log id, seq)` witnessed at that moment; nil when the home had not synced
    /// with any daemon yet.
    public let position: LogPosition?
  }

  /// What this home has witnessed now (``WitnessSnapshot``).
  public func witnessSnapshot() throws(ClientError) -> WitnessSnapshot {
    WitnessSnapshot(position: try witnessed())
  }

  /// The highest position this home has witnessed; nil before its first sync.
  public func witnessed() throws(ClientError) -> LogPosition? {
    try reading { db in try witnessed(in: db) }
  }

  /// Raises the witnessed position to `position` when it is further along the same log, or when
  /// none is witnessed yet; otherwise leaves it.
  public func witness(_ position: LogPosition) throws(ClientError) {
    try access(synced: false) { db in try witness(position, in: db) }
  }

  /// Takes the daemon's position as the witnessed one, whatever was witnessed before: a person
  /// accepted the daemon's log as it is. The states kept of each scope go with the old position:
  /// they belong to a history this daemon does not have, so a window must not ask for the
  /// changes since them.
  public func adopt(_ position: LogPosition) throws(ClientError) {
    try access { db in
      try write(position, in: db)
      try db.execute(sql: "DELETE FROM seen")
    }
  }

  /// ``witness(_:)`` inside a transaction already open: a removal or a state remembered raises
  /// the position in the same commit.
  func witness(_ position: LogPosition, in db: Database) throws {
    if let current = try witnessed(in: db), current.logID != position.logID || current.seq >= position.seq { return }
    try write(position, in: db)
  }

  private func witnessed(in db: Database) throws -> LogPosition? {
    guard let sealed = try Data.fetchOne(db, sql: "SELECT sealed FROM witness WHERE id = 1") else { return nil }
    guard let opened = sealer.open([UInt8](sealed), associatedData: Self.witnessPlace),
      case let .object(fields)? = try? JSONParser.parse(opened), case let .string(logID)? = fields["log_id"],
      let exact = fields["seq"]?.int64
    else { throw ClientError.local("the outbox's witnessed log position does not open with this key") }
    return LogPosition(logID: logID, seq: exact)
  }

  private func write(_ position: LogPosition, in db: Database) throws {
    let object: JSONValue = ["log_id": .string(position.logID), "seq": .integer(position.seq)]
    let sealed = sealer.seal(Array(object.jsonText.utf8), associatedData: Self.witnessPlace)
    try db.execute(sql: "INSERT OR REPLACE INTO witness (id, sealed) VALUES (1, ?)", arguments: [Data(sealed)])
  }

  /// An outbox from before witnessing knew only the log id, in the clear: it becomes the
  /// witnessed position (at seq 0) once, when the outbox is opened, and the clear copy goes.
  func adoptLegacyLogID(in db: Database) throws {
    guard let logID = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'log_id'") else { return }
    if try witnessed(in: db) == nil { try write(LogPosition(logID: logID, seq: 0), in: db) }
    try db.execute(sql: "DELETE FROM meta WHERE key = 'log_id'")
  }

  private static let witnessPlace = Array("witness".utf8)
}
