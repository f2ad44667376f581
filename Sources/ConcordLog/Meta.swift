import Foundation
import GRDB

/// The settings of a log, one row each in its `meta` table. None of them is secret: the wrapped
/// keys are sealed, and the key id and public key reveal nothing about the keys behind them.
struct Meta {
  struct KDF {
    var algorithm: String
    var salt: [UInt8]
    var operations: UInt64
    var memory: Int
  }

  var logID: [UInt8]
  var keyKind = "file"
  var keyID: [UInt8] = []
  var kdf: KDF?
  var wrappedKeyNonce: [UInt8] = []
  var wrappedKey: [UInt8] = []
  var signingPublic: [UInt8] = []
  var signingSecretNonce: [UInt8] = []
  var signingSecret: [UInt8] = []

  static let format = "concord-log-v1"

  static func wrapAssociatedData(_ logID: [UInt8]) -> [UInt8] {
    Array("concord.master-key.v1".utf8) + logID
  }

  static func signingAssociatedData(_ logID: [UInt8]) -> [UInt8] {
    Array("concord.signing-key.v1".utf8) + logID
  }

  /// The settings of the log in `db` (at `path`, for errors), or nil when it has none yet (a new database).
  static func load(_ db: Database, path: String) throws -> Meta? {
    guard try db.tableExists("meta") else {
      // A database with other tables and no meta is someone else's.
      let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'grdb_%'") ?? 0
      if tables > 0 { throw LogError.notALog(path: path, reason: "it has no Concord settings") }
      return nil
    }
    var values: [String: [UInt8]] = [:]
    for row in try Row.fetchAll(db, sql: "SELECT name, value FROM meta") {
      values[row[0]] = [UInt8](row[1] as Data)
    }
    if values.isEmpty { return nil }
    func text(_ name: String) -> String? { values[name].map { String(decoding: $0, as: UTF8.self) } }
    func bytes(_ name: String) throws -> [UInt8] {
      guard let value = values[name] else {
        throw LogError.notALog(path: path, reason: "its setting \(name) is missing")
      }
      return value
    }
    guard text("format") == format else {
      throw LogError.notALog(path: path, reason: "unknown format \(text("format") ?? "none")")
    }
    var meta = Meta(logID: try bytes("log_id"))
    meta.keyKind = text("key_kind") ?? "file"
    meta.keyID = try bytes("key_id")
    if meta.keyKind == "passphrase" {
      meta.kdf = KDF(
        algorithm: text("kdf_algorithm") ?? "",
        salt: try bytes("kdf_salt"),
        operations: UInt64(text("kdf_operations") ?? "") ?? 0,
        memory: Int(text("kdf_memory") ?? "") ?? 0)
      meta.wrappedKeyNonce = try bytes("wrapped_key_nonce")
      meta.wrappedKey = try bytes("wrapped_key")
    }
    meta.signingPublic = try bytes("signing_public")
    meta.signingSecretNonce = try bytes("signing_secret_nonce")
    meta.signingSecret = try bytes("signing_secret")
    return meta
  }

  func save(_ db: Database) throws {
    var values: [(String, [UInt8])] = [
      ("format", Array(Meta.format.utf8)),
      ("log_id", logID),
      ("key_kind", Array(keyKind.utf8)),
      ("key_id", keyID),
      ("signing_public", signingPublic),
      ("signing_secret_nonce", signingSecretNonce),
      ("signing_secret", signingSecret),
    ]
    if let kdf {
      values += [
        ("kdf_algorithm", Array(kdf.algorithm.utf8)),
        ("kdf_salt", kdf.salt),
        ("kdf_operations", Array(String(kdf.operations).utf8)),
        ("kdf_memory", Array(String(kdf.memory).utf8)),
        ("wrapped_key_nonce", wrappedKeyNonce),
        ("wrapped_key", wrappedKey),
      ]
    }
    for (name, value) in values {
      try db.execute(sql: "INSERT INTO meta (name, value) VALUES (?, ?)", arguments: [name, Data(value)])
    }
  }
}
