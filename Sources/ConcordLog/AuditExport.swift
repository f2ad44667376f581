import Foundation

/// Audit exports: the record layout, and the verification an auditor runs with the public key
/// alone — no decryption key needed.
///
/// ```swift
/// let result = AuditExport.verify(lines: text.split(separator: "\n").map(String.init),
///                                 publicKey: trustedKey)
/// if let failure = result.failure { print("export broken at line \(failure.line): \(failure.reason)") }
/// ```
public enum AuditExport {
  static let formatName = "concord-audit-v1"
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

  /// The result of verifying an export.
  public struct Verification: Sendable, Equatable {
    public struct Failure: Sendable, Equatable, CustomStringConvertible {
      /// The line (from 1) where the export stops being sound.
      public let line: Int
      public let seq: Int64?
      public let reason: String
      public var description: String {
        "line \(line)" + (seq.map { " (seq \($0))" } ?? "") + ": \(reason)"
      }
    }

    /// Entries whose hash was recomputed and found to chain.
    public let verifiedEntries: Int64
    public let failure: Failure?
    /// True when the signature was checked against the key in the export's own header, not a
    /// key the auditor supplied (which proves integrity, not origin).
    public let usedHeaderKey: Bool
    public var isSound: Bool { failure == nil }
  }

  /// Verifies a JSONL export: the header, every record's hash recomputed from its fields and
  /// chained to the one before, the count, and the footer's signature over the chain head.
  ///
  /// - Parameter publicKey: the log's public key as the auditor received it (the `.pub` file).
  ///   When nil, the key in the export's header is used, and the result says so.
  public static func verify(lines: some Sequence<String>, publicKey: [UInt8]? = nil) -> Verification {
    var number = 0
    var verified: Int64 = 0
    var usedHeaderKey = false
    func fail(_ reason: String, seq: Int64? = nil) -> Verification {
      Verification(
        verifiedEntries: verified, failure: .init(line: number, seq: seq, reason: reason),
        usedHeaderKey: usedHeaderKey)
    }
    var logID: [UInt8] = []
    var key: [UInt8] = []
    var previous: [UInt8] = []
    var expectedSeq: Int64 = 0
    var declaredCount: Int64 = 0
    var declaredTo: Int64 = 0
    var declaredTimes: (first: String?, last: String?) = (nil, nil)
    var times: (first: Int64?, last: Int64?) = (nil, nil)
    var sawFooter = false
    for line in lines where !line.isEmpty {
      number += 1
      guard !sawFooter else { return fail("there is text after the footer") }
      guard
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let type = object["type"] as? String
      else { return fail("not a JSON object with a type") }
      let fields = Fields(object)
      // Nothing unsigned may ride along: every key must be one the format defines.
      if let allowed = knownKeys[type], let extra = object.keys.first(where: { !allowed.contains($0) }) {
        return fail("unknown field \(extra) in a \(type) record")
      }
      if number == 1 {
        guard type == "header", fields.string("format") == formatName,
          let id = fields.hex("log_id"), let from = fields.int("from"), let count = fields.int("count"),
          let headerKey = fields.hex("public_key"), let prev = fields.hex("prev_hash")
        else { return fail("the first line is not a \(formatName) header") }
        logID = id
        usedHeaderKey = publicKey == nil
        key = publicKey ?? headerKey
        if publicKey != nil, headerKey != publicKey! {
          return fail("the header names another public key than the one supplied")
        }
        if from == 1, prev != EntryCodec.genesis(logID: id) {
          return fail("an export from seq 1 must start from the log's genesis hash")
        }
        previous = prev
        expectedSeq = from
        declaredCount = count
        declaredTo = fields.int("to") ?? -1
        declaredTimes = (fields.string("first_time"), fields.string("last_time"))
        continue
      }
      switch type {
      case "entry":
        guard let seq = fields.int("seq") else { return fail("an entry without a seq") }
        guard seq == expectedSeq else { return fail("expected seq \(expectedSeq)", seq: seq) }
        guard fields.hex("prev_hash") == previous else {
          return fail("its prev_hash is not the hash before it", seq: seq)
        }
        if fields.string("outcome") == "applied", !(object["reason"] is NSNull) {
          return fail("an applied entry carries a reason", seq: seq)
        }
        if let at = fields.string("time").flatMap(AuditText.milliseconds(fromTime:)) {
          times = (min(times.first ?? at, at), max(times.last ?? at, at))
        }
        guard let hash = recomputeHash(fields, seq: seq, previous: previous) else {
          return fail("a field is missing or malformed", seq: seq)
        }
        guard fields.hex("hash") == hash else {
          return fail("its hash does not match its contents", seq: seq)
        }
        previous = hash
        expectedSeq += 1
        verified += 1
      case "footer":
        sawFooter = true
        guard let seq = fields.int("seq"), let head = fields.hex("chain_head"),
          let signature = fields.hex("signature")
        else { return fail("a malformed footer") }
        guard verified == declaredCount else {
          return fail("the header declares \(declaredCount) entries, the export holds \(verified)")
        }
        guard seq == expectedSeq - 1, head == previous else {
          return fail("the footer's chain head is not the last entry's hash", seq: seq)
        }
        guard declaredTo == seq else {
          return fail("the header's range ends at \(declaredTo), the export at \(seq)")
        }
        guard declaredTimes.first == times.first.map(AuditText.time(milliseconds:)),
          declaredTimes.last == times.last.map(AuditText.time(milliseconds:))
        else { return fail("the header's first and last times are not the entries' times") }
        let checkpoint = Checkpoint(seq: seq, head: head, signature: signature)
        guard checkpoint.isSigned(by: key, logID: logID) else {
          return fail("the footer's signature does not verify with the public key", seq: seq)
        }
      default:
        return fail("unknown record type \(type)")
      }
    }
    guard number > 0 else { return fail("the export is empty") }
    guard sawFooter else { return fail("the footer is missing: the export was cut short") }
    return Verification(verifiedEntries: verified, failure: nil, usedHeaderKey: usedHeaderKey)
  }

  /// Verifies the JSONL export in the file at `url`, reading it line by line.
  public static func verify(fileAt url: URL, publicKey: [UInt8]? = nil) throws -> Verification {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    return verify(lines: LineReader(handle: handle), publicKey: publicKey)
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

  /// The chain hash of an exported entry, rebuilt from its fields.
  private static func recomputeHash(_ fields: Fields, seq: Int64, previous: [UInt8]) -> [UInt8]? {
    guard let time = fields.string("time"), let at = AuditText.milliseconds(fromTime: time),
      let user = fields.string("user"), let client = fields.string("client"),
      let cseq = fields.int("cseq"), let scope = fields.string("scope"),
      let action = fields.string("action"), let outcomeName = fields.string("outcome"),
      let app = fields.string("app"), let version = fields.int("app_version"),
      let salt = fields.hex("salt"), salt.count == EntryCodec.saltBytes
    else { return nil }
    let outcome: LogRecord.Outcome
    switch outcomeName {
    case "applied": outcome = .applied
    case "refused":
      guard let reason = fields.string("reason") else { return nil }
      outcome = .refused(reason: reason)
    default: return nil
    }
    let payload = EntryCodec.encode(
      EntryCodec.Payload(
        salt: salt, user: user, scope: scope, action: action, outcome: outcome, app: app,
        appVersion: Int(version)))
    return EntryCodec.chainHash(
      previous: previous, seq: seq, atMilliseconds: at, client: client, cseq: cseq, payload: payload)
  }

  private static let knownKeys: [String: Set<String>] = [
    "header": ["type", "format", "log_id", "from", "to", "count", "first_time", "last_time", "public_key", "prev_hash"],
    "entry": ["type", "seq", "time", "user", "client", "cseq", "scope", "action", "outcome", "reason", "app", "app_version", "salt", "prev_hash", "hash"],
    "footer": ["type", "seq", "chain_head", "signature"],
  ]

  private struct Fields {
    let object: [String: Any]
    init(_ object: [String: Any]) { self.object = object }
    func string(_ key: String) -> String? { object[key] as? String }
    func int(_ key: String) -> Int64? {
      guard let number = object[key] as? NSNumber, Double(number.int64Value) == number.doubleValue else { return nil }
      return number.int64Value
    }
    func hex(_ key: String) -> [UInt8]? { string(key).flatMap { [UInt8](hex: $0) } }
  }
}

/// The lines of a file, read in chunks.
struct LineReader: Sequence, IteratorProtocol {
  let handle: FileHandle
  var buffer: [UInt8] = []
  /// Where the next line starts: lines are taken by moving it, and the buffer is compacted once
  /// per chunk, not once per line.
  var start = 0
  var atEnd = false

  init(handle: FileHandle) { self.handle = handle }

  mutating func next() -> String? {
    while true {
      if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[start..<newline], as: UTF8.self)
        start = newline + 1
        return line
      }
      if atEnd {
        guard start < buffer.count else { return nil }
        defer { start = buffer.count }
        return String(decoding: buffer[start...], as: UTF8.self)
      }
      buffer.removeSubrange(..<start)
      start = 0
      let chunk = (try? handle.read(upToCount: 1 << 16)) ?? nil
      if let chunk, !chunk.isEmpty { buffer.append(contentsOf: chunk) } else { atEnd = true }
    }
  }
}
