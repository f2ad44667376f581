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
    do {
      try database.write { db in
        try db.execute(
          sql: "INSERT OR REPLACE INTO snapshots (seq, at_ms, nonce, ciphertext, state_hash) VALUES (?, ?, ?, ?, ?)",
          arguments: [seq, Date().milliseconds, Data(sealed.nonce), Data(sealed.ciphertext), Data(hash)])
      }
    } catch {
      throw .writeFailed(path: path, reason: Self.describe(error))
    }
  }

  /// The newest snapshot that opens, matches its hash, decodes and lies within the log; nil when
  /// there is none (replay the whole log then).
  public func newestSnapshot<State: Decodable & Sendable>(
    of type: State.Type = State.self
  ) throws(LogError) -> LoadedSnapshot<State>? {
    let rows: [Row]
    do {
      rows = try database.read { db in
        try Row.fetchAll(db, sql: "SELECT seq, nonce, ciphertext, state_hash FROM snapshots ORDER BY seq DESC")
      }
    } catch {
      throw .readFailed(path: path, reason: Self.describe(error))
    }
    let last = lastSeq
    var skipped: [(Int64, String)] = []
    for row in rows {
      let seq: Int64 = row[0]
      guard seq <= last else {
        skipped.append((seq, "it is beyond the end of the log (\(last))"))
        continue
      }
      guard
        let plaintext = Crypto.open(
          [UInt8](row[2] as Data), nonce: [UInt8](row[1] as Data),
          associatedData: snapshotAssociatedData(seq), key: keys.snapshots)
      else {
        skipped.append((seq, "its seal does not open"))
        continue
      }
      guard Crypto.equal(Crypto.hash(plaintext, key: keys.snapshots), [UInt8](row[3] as Data)) else {
        skipped.append((seq, "its state hash does not match"))
        continue
      }
      do {
        let state = try JSONDecoder().decode(State.self, from: Data(plaintext))
        return LoadedSnapshot(seq: seq, state: state, skipped: skipped)
      } catch {
        skipped.append((seq, "it does not decode as \(State.self): \(error)"))
      }
    }
    return nil
  }

  private func snapshotAssociatedData(_ seq: Int64) -> [UInt8] {
    var out = Array("concord.snapshot.v1".utf8) + logID
    EntryCodec.append(seq, to: &out)
    out.append(contentsOf: keys.keyID)
    return out
  }
}
