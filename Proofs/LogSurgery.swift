import Foundation
import GRDB

/// Changes made to a stopped daemon's log behind its back, as a failing disk or a meddler would.
enum LogSurgery {
  /// Deletes every snapshot, so the next boot replays the whole log.
  static func removeSnapshots(from log: URL) throws {
    try DatabaseQueue(path: log.path).write { try $0.execute(sql: "DELETE FROM snapshots") }
  }

  /// Flips one byte in the middle of the newest snapshot's ciphertext; returns its seq.
  static func corruptNewestSnapshot(of log: URL) throws -> Int64 {
    try DatabaseQueue(path: log.path).write { db in
      guard let row = try Row.fetchOne(db, sql: "SELECT seq, ciphertext FROM snapshots ORDER BY seq DESC LIMIT 1") else {
        throw CocoaError(.fileReadCorruptFile)
      }
      let seq: Int64 = row[0]
      try db.execute(sql: "UPDATE snapshots SET ciphertext = ? WHERE seq = ?", arguments: [flipped(row[1]), seq])
      return seq
    }
  }

  /// Flips one byte in the middle of entry `seq`'s ciphertext.
  static func corruptEntry(_ seq: Int64, of log: URL) throws {
    try DatabaseQueue(path: log.path).write { db in
      let ciphertext = try Data.fetchOne(db, sql: "SELECT ciphertext FROM entries WHERE seq = ?", arguments: [seq])
      try db.execute(sql: "UPDATE entries SET ciphertext = ? WHERE seq = ?", arguments: [flipped(ciphertext ?? Data()), seq])
    }
  }

  private static func flipped(_ data: Data) -> Data {
    var bytes = [UInt8](data)
    if !bytes.isEmpty { bytes[bytes.count / 2] ^= 0x5A }
    return Data(bytes)
  }
}
