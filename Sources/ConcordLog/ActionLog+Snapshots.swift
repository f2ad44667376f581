import Foundation
import GRDB

/// A state loaded from a snapshot, and the seq it was taken at.
public struct LoadedSnapshot<State>: Sendable where State: Sendable {
  public let seq: Int64
  public let state: State
  /// Newer snapshots that were passed over, with the reason (each one is a warning to report).
  public let skipped: [(seq: Int64, reason: String)]
}

extension ActionLog {
  /// Seals `state` as the state after entry `seq`.
  ///
  /// A snapshot is a cache of the fold of the log up to `seq`; loading never trusts one that does
  /// not open, does not match its hash, or lies beyond the end of the log.
  public func saveSnapshot<State: Encodable>(_ state: State, at seq: Int64) throws(LogError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let plaintext: [UInt8]
    do {
      plaintext = [UInt8](try encoder.encode(state))
    } catch {
      throw .writeFailed(path: path, reason: "the state cannot be encoded: \(error)")
    }
    let sealed = Crypto.seal(plaintext, associatedData: snapshotAssociatedData(seq), key: keys.snapshots)
    let hash = Crypto.hash(plaintext, key: keys.snapshots)
    try writing {
      try database.write { db in
        try db.execute(
          sql: "INSERT OR REPLACE INTO snapshots (seq, at_ms, nonce, ciphertext, state_hash) VALUES (?, ?, ?, ?, ?)",
          arguments: [seq, Date().milliseconds, Data(sealed.nonce), Data(sealed.ciphertext), Data(hash)])
      }
    }
  }

  /// The newest snapshot that opens, matches its hash, decodes and lies within the log; nil when
  /// there is none (replay the whole log then).
  ///
  /// - Parameter notAfter: only snapshots at or before this seq (to rebuild an older state).
  public func newestSnapshot<State: Decodable & Sendable>(
    of type: State.Type = State.self, notAfter: Int64? = nil
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
          switch openSnapshot(row, seq: seq, lastSeq: last, as: State.self) {
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
    _ row: Row, seq: Int64, lastSeq: Int64, as type: State.Type
  ) -> Result<State, SnapshotRejection> {
    guard seq <= lastSeq else {
      return .failure(.init(text: "it is beyond the end of the log (\(lastSeq))"))
    }
    let nonce: Data = row[1]
    let ciphertext: Data = row[2]
    let plaintext = ciphertext.withUnsafeBytes { ciphertext in
      nonce.withUnsafeBytes { nonce in
        Crypto.open(ciphertext, nonce: nonce, associatedData: snapshotAssociatedData(seq), key: keys.snapshots)
      }
    }
    guard let plaintext else { return .failure(.init(text: "its seal does not open")) }
    guard Crypto.equal(Crypto.hash(plaintext, key: keys.snapshots), [UInt8](row[3] as Data)) else {
      return .failure(.init(text: "its state hash does not match"))
    }
    do {
      return .success(try JSONDecoder().decode(State.self, from: Data(plaintext)))
    } catch {
      return .failure(.init(text: "it does not decode as \(State.self): \(error)"))
    }
  }

  private func snapshotAssociatedData(_ seq: Int64) -> [UInt8] {
    var out = Array("concord.snapshot.v1".utf8) + logID
    EntryCodec.append(seq, to: &out)
    out.append(contentsOf: keys.keyID)
    return out
  }
}
