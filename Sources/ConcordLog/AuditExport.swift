import Foundation

/// Audit exports: the record layout, and the verification an auditor runs with the public key
/// alone — no decryption key needed (``verify(lines:publicKey:)``, in `AuditExport+Verify`).
///
/// ```swift
/// let result = AuditExport.verify(lines: text.split(separator: "\n").map(String.init),
///                                 publicKey: trustedKey)
/// if let failure = result.failure { print("export broken at line \(failure.line): \(failure.reason)") }
/// ```
public enum AuditExport {
  static let formatName = "concord-audit-v1"
  /// The longest line a record of an export can be: an entry's action is at most 1 MiB as the
  /// daemon logs it, and JSON escapes a byte in at most six; the rest of a record is small. A
  /// longer line is refused without being read whole, so a hostile file cannot fill memory.
  public static let maximumLineBytes = 8 << 20
  static let csvColumns = [
    "seq", "time", "user", "client", "cseq", "scope", "action", "outcome", "reason", "app",
    "app_version", "salt", "prev_hash", "hash",
  ]

  static func line(for entry: LogEntry, format: AuditFormat) -> String {
    let record = entry.record
    let (outcome, reason): (String, String?) =
      switch record.outcome {
      case .applied: ("applied", nil)
      case let .refused(reason): ("refused", reason)
      }
    let time = AuditText.time(milliseconds: record.at.milliseconds)
    switch format {
    case .jsonl:
      return AuditText.json([
        "type": .string("entry"),
        "seq": .int(entry.seq),
        "time": .string(time),
        "user": .string(record.user),
        "client": .string(record.client),
        "cseq": .int(record.cseq),
        "scope": .string(record.scope),
        "action": .string(record.action),
        "outcome": .string(outcome),
        "reason": reason.map { .string($0) } ?? .null,
        "app": .string(record.app),
        "app_version": .int(Int64(record.appVersion)),
        "salt": .string(entry.salt.hex),
        "prev_hash": .string(entry.previousHash.hex),
        "hash": .string(entry.hash.hex),
      ])
    case .csv:
      return [
        String(entry.seq), time, record.user, record.client, String(record.cseq), record.scope,
        record.action, outcome, reason ?? "", record.app, String(record.appVersion), entry.salt.hex,
        entry.previousHash.hex, entry.hash.hex,
      ].map(AuditText.csvField).joined(separator: ",")
    }
  }

  /// A hash-only stand-in for an entry a scoped export does not disclose: its seq and the two
  /// hashes the chain needs, so the chain still verifies from end to end, and nothing of who,
  /// when or what.
  static func stubLine(for entry: LogEntry, format: AuditFormat) -> String {
    switch format {
    case .jsonl:
      return AuditText.json([
        "type": .string("stub"),
        "seq": .int(entry.seq),
        "prev_hash": .string(entry.previousHash.hex),
        "hash": .string(entry.hash.hex),
      ])
    case .csv:
      return ([String(entry.seq)] + Array(repeating: "", count: csvColumns.count - 3)
        + [entry.previousHash.hex, entry.hash.hex]).joined(separator: ",")
    }
  }

  /// The public key in a log's `.pub` file (``ActionLog/publicKeyFile``): what an auditor is
  /// given, out of band, to verify exports with.
  public static func publicKey(fromFileAt url: URL) throws(LogError) -> [UInt8] {
    guard let bytes = try DurableFile.read(url.path) else {
      throw .io(path: url.path, reason: "the public key file is missing")
    }
    let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard let key = [UInt8](hex: text), key.count == Crypto.publicKeyBytes else {
      throw .io(path: url.path, reason: "not a Concord public key (\(Crypto.publicKeyBytes * 2) hex digits)")
    }
    return key
  }
}
