import ConcordJSON
import Foundation
import GRDB

/// A state loaded from a snapshot, and the seq it was taken at.
public struct LoadedSnapshot<State>: Sendable where State: Sendable {
  public let seq: Int64
  public let state: State
  /// Newer snapshots that were passed over, with the reason (each one is a warning to report).
  public let skipped: [(seq: Int64, reason: String)]
}

/// The app, and the version of it, whose reducer folded a snapshot's state. Only the same app
/// version reads it back: another version folds the log to its own state (a migrated date, a
/// changed rule), so a snapshot of an earlier version is not a cache of this one's fold.
public struct AppVersion: Sendable, Equatable {
  public var name: String
  public var version: Int

  public init(name: String, version: Int) {
    self.name = name
    self.version = version
  }
}

/// A snapshot sealed and ready to store: made from the state on any thread, stored by the
/// log's writer. Sealing a large state takes milliseconds; only storing it needs the writer, so a
/// daemon seals off its commit thread and commits are not queued behind the encoding.
public struct SealedSnapshot: Sendable {
  /// The log entry whose state this is.
  public let seq: Int64
  let nonce: [UInt8]
  let ciphertext: [UInt8]
  let stateHash: [UInt8]
}

extension ActionLog {
  /// Seals `state` as the state after entry `seq`, folded by `app`, and stores it.
  ///
  /// A snapshot is a cache of the fold of the log up to `seq`; loading never trusts one that does
  /// not open (sealed for another app version, or damaged), does not match its hash, or lies
  /// beyond the end of the log.
  ///
  /// ```swift
  /// try log.saveSnapshot(state, at: 120, by: AppVersion(name: "workspace", version: 2))
  /// ```
  public func saveSnapshot<State: Encodable>(_ state: State, at seq: Int64, by app: AppVersion) throws(LogError) {
    try store(try sealSnapshot(state, at: seq, by: app))
  }

  /// Encodes and seals `state` as the state after entry `seq`, folded by `app`, without touching
  /// the database: safe on any thread, beside the writer.
  ///
  /// ```swift
  /// let sealed = try log.sealSnapshot(state, at: 120, by: version)   // any thread
  /// try log.store(sealed)                                             // the writer's thread
  /// ```
  public func sealSnapshot<State: Encodable>(_ state: State, at seq: Int64, by app: AppVersion) throws(LogError) -> SealedSnapshot {
    let plaintext: [UInt8]
    do {
      plaintext = Array(try JSONValue(encoding: state).jsonText.utf8)
    } catch {
      throw .writeFailed(path: path, reason: "the state cannot be encoded: \(error)")
    }
    let sealed = Crypto.seal(plaintext, associatedData: snapshotAssociatedData(seq, app), key: keys.snapshots)
    return SealedSnapshot(
      seq: seq, nonce: sealed.nonce, ciphertext: sealed.ciphertext,
      stateHash: Crypto.hash(plaintext, key: keys.snapshots))
  }

  /// Stores a snapshot made by ``sealSnapshot(_:at:by:)``, replacing one at the same seq.
  public func store(_ snapshot: SealedSnapshot) throws(LogError) {
    try writing {
      try database.write { db in
        try db.execute(
          sql: "INSERT OR REPLACE INTO snapshots (seq, at_ms, nonce, ciphertext, state_hash) VALUES (?, ?, ?, ?, ?)",
          arguments: [
            snapshot.seq, Date().milliseconds, Data(snapshot.nonce), Data(snapshot.ciphertext), Data(snapshot.stateHash),
          ])
      }
    }
  }

  /// The newest snapshot of `app` that opens, matches its hash, decodes and lies within the log;
  /// nil when there is none (replay the whole log then).
  ///
  /// - Parameter notAfter: only snapshots at or before this seq (to rebuild an older state).
  public func newestSnapshot<State: Decodable & Sendable>(
    of type: State.Type = State.self, by app: AppVersion, notAfter: Int64? = nil
  ) throws(LogError) -> LoadedSnapshot<State>? {
    let last = lastSeq
    let limit = notAfter ?? Int64.max
    // Newest first, one row at a time: older snapshots are read only when newer ones fail.
    return try reading {
      try database.read { db in
        var skipped: [(seq: Int64, reason: String)] = []
        let rows = try Row.fetchCursor(
          db, sql: "SELECT seq, nonce, ciphertext, state_hash FROM snapshots WHERE seq <= ? ORDER BY seq DESC",
          arguments: [limit])
        while let row = try rows.next() {
          let seq: Int64 = row[0]
          switch openSnapshot(row, seq: seq, lastSeq: last, by: app, as: State.self) {
          case let .success(state): return LoadedSnapshot(seq: seq, state: state, skipped: skipped)
          case let .failure(reason): skipped.append((seq, reason.text))
          }
        }
        return nil
      }
    }
  }

  /// Why a snapshot was passed over.
  private struct SnapshotRejection: Error {
    let text: String
  }

  private func openSnapshot<State: Decodable>(
    _ row: Row, seq: Int64, lastSeq: Int64, by app: AppVersion, as type: State.Type
  ) -> Result<State, SnapshotRejection> {
    guard seq <= lastSeq else {
      return .failure(.init(text: "it is beyond the end of the log (\(lastSeq))"))
    }
    let nonce: Data = row[1]
    let ciphertext: Data = row[2]
    let plaintext = ciphertext.withUnsafeBytes { ciphertext in
      nonce.withUnsafeBytes { nonce in
        Crypto.open(ciphertext, nonce: nonce, associatedData: snapshotAssociatedData(seq, app), key: keys.snapshots)
      }
    }
    guard let plaintext else {
      return .failure(.init(text: "its seal does not open for \(app.name) version \(app.version) (taken by another version, or damaged)"))
    }
    guard Crypto.equal(Crypto.hash(plaintext, key: keys.snapshots), [UInt8](row[3] as Data)) else {
      return .failure(.init(text: "its state hash does not match"))
    }
    do {
      return .success(try JSONParser.parse(plaintext).decode(State.self))
    } catch {
      return .failure(.init(text: "it does not decode as \(State.self): \(error)"))
    }
  }

  /// Binds a snapshot to its log, its place, its key and the app version that folded it.
  private func snapshotAssociatedData(_ seq: Int64, _ app: AppVersion) -> [UInt8] {
    var out = Array("concord.snapshot.v2".utf8) + logID
    EntryCodec.append(seq, to: &out)
    out.append(contentsOf: keys.keyID)
    EntryCodec.append(Int64(app.version), to: &out)
    out.append(contentsOf: app.name.utf8)
    return out
  }
}
