import ConcordJSON

/// The byte layouts of an entry: its sealed payload, its associated data and its chain hash.
///
/// These layouts are the log's format: an audit export carries every field they contain, so an
/// auditor can recompute each hash (see `schema/audit-export.schema.json`). Integers are
/// big-endian; a string is its UTF-8 length as four bytes, then its bytes.
enum EntryCodec {
  static let payloadVersion: UInt8 = 1
  static let saltBytes = 16

  struct Payload: Equatable {
    var salt: [UInt8]
    var user: String
    var scope: String
    var action: String
    var outcome: ActionOutcome
    var app: String
    var appVersion: Int
  }

  static func encode(_ payload: Payload) -> [UInt8] {
    var out: [UInt8] = []
    payload.salt.withUnsafeBytes { salt in
      encode(
        salt: salt, user: payload.user, scope: payload.scope, action: payload.action,
        outcome: payload.outcome, app: payload.app, appVersion: payload.appVersion, into: &out)
    }
    return out
  }

  /// How many bytes ``encode(salt:user:scope:action:outcome:app:appVersion:into:)`` writes for
  /// these fields.
  static func payloadByteCount(
    user: String, scope: String, action: String, outcome: ActionOutcome, app: String
  ) -> Int {
    let reason: Int
    switch outcome {
    case .applied: reason = 0
    case let .refused(text): reason = text.utf8.count
    }
    // Version, salt, five length-prefixed strings, the outcome's tag, the app's version.
    return 1 + saltBytes + 5 * 4 + user.utf8.count + scope.utf8.count + action.utf8.count + reason
      + app.utf8.count + 1 + 8
  }

  /// Writes a payload's bytes at the end of `out`. The append path reuses one buffer for a
  /// whole batch, so an entry costs no allocation here.
  static func encode(
    salt: UnsafeRawBufferPointer, user: String, scope: String, action: String,
    outcome: ActionOutcome, app: String, appVersion: Int, into out: inout [UInt8]
  ) {
    precondition(salt.count == saltBytes)
    out.reserveCapacity(out.count + 64 + action.utf8.count)
    out.append(payloadVersion)
    out.append(contentsOf: salt)
    append(user, to: &out)
    append(scope, to: &out)
    append(action, to: &out)
    switch outcome {
    case .applied:
      out.append(0)
      append("", to: &out)
    case let .refused(reason):
      out.append(1)
      append(reason, to: &out)
    }
    append(app, to: &out)
    append(Int64(appVersion), to: &out)
  }

  static func decode(_ bytes: [UInt8]) -> Payload? {
    var reader = Reader(bytes: bytes)
    guard reader.byte() == payloadVersion,
      let salt = reader.bytes(saltBytes),
      let user = reader.string(), let scope = reader.string(), let action = reader.string(),
      let outcomeTag = reader.byte(), let reason = reader.string(),
      let app = reader.string(), let version = reader.int64(), reader.isAtEnd
    else { return nil }
    let outcome: ActionOutcome
    switch outcomeTag {
    case 0: outcome = .applied
    case 1: outcome = .refused(reason: reason)
    default: return nil
    }
    return Payload(
      salt: salt, user: user, scope: scope, action: action, outcome: outcome, app: app,
      appVersion: Int(version))
  }

  /// What the seal of entry `seq` is bound to: moving a row, or sealing it under another log,
  /// key or chain position, makes it fail to open. The layout is
  /// `concord.entry.v1 ‖ log id ‖ key id ‖ seq ‖ previous hash`; the first three parts are the
  /// same for a whole log (``associatedDataPrefix(logID:keyID:)``), made once.
  ///
  /// This turns `out`, which starts with the log's prefix, into the associated data of entry
  /// `seq`: the append and read paths reuse one buffer for a whole batch or walk.
  static func replaceAssociatedData(of out: inout [UInt8], prefixCount: Int, seq: Int64, previousHash: [UInt8]) {
    out.removeSubrange(prefixCount...)
    append(seq, to: &out)
    out.append(contentsOf: previousHash)
  }

  static func associatedDataPrefix(logID: [UInt8], keyID: [UInt8]) -> [UInt8] {
    Array("concord.entry.v1".utf8) + logID + keyID
  }

  /// ``chainHash(previous:seq:atMilliseconds:client:cseq:payload:)`` written into `out`
  /// (``Crypto/hashBytes`` bytes): the append path writes it straight into its row.
  static func chainHash(
    previous: [UInt8], seq: Int64, atMilliseconds: Int64, client: String, cseq: Int64,
    payload: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer
  ) {
    precondition(out.count == Crypto.hashBytes)
    Crypto.hash(into: out) { hasher in
      hasher.update(previous)
      hasher.update("concord.chain.v1")
      hasher.update(bigEndian: seq)
      hasher.update(bigEndian: atMilliseconds)
      hasher.update(lengthPrefixed: client)
      hasher.update(bigEndian: cseq)
      hasher.update(payload)
    }
  }

  /// The chain hash after an entry: BLAKE2b-256 over the previous hash, the entry's clear fields
  /// and its payload.
  static func chainHash(
    previous: [UInt8], seq: Int64, atMilliseconds: Int64, client: String, cseq: Int64,
    payload: [UInt8]
  ) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: Crypto.hashBytes)
    payload.withUnsafeBytes { payload in
      out.withUnsafeMutableBytes {
        chainHash(
          previous: previous, seq: seq, atMilliseconds: atMilliseconds, client: client, cseq: cseq, payload: payload,
          into: $0)
      }
    }
    return out
  }

  /// The hash the chain starts from: bound to the log's id.
  static func genesis(logID: [UInt8]) -> [UInt8] {
    Crypto.hash(Array("concord.genesis.v1".utf8), logID)
  }

  /// What a checkpoint signs.
  static func checkpointMessage(logID: [UInt8], seq: Int64, head: [UInt8]) -> [UInt8] {
    var out = Array("concord.checkpoint.v1".utf8)
    out.append(contentsOf: logID)
    append(seq, to: &out)
    out.append(contentsOf: head)
    return out
  }

  static func append(_ string: String, to out: inout [UInt8]) {
    let utf8 = string.utf8
    append(UInt32(utf8.count), to: &out)
    out.append(contentsOf: utf8)
  }

  static func append(_ value: Int64, to out: inout [UInt8]) {
    append(UInt64(bitPattern: value), to: &out)
  }

  static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
    withUnsafeBytes(of: value.bigEndian) { out.append(contentsOf: $0) }
  }

  struct Reader {
    let bytes: [UInt8]
    var offset = 0

    var isAtEnd: Bool { offset == bytes.count }

    mutating func byte() -> UInt8? {
      guard offset < bytes.count else { return nil }
      defer { offset += 1 }
      return bytes[offset]
    }

    mutating func bytes(_ count: Int) -> [UInt8]? {
      guard count >= 0, bytes.count - offset >= count else { return nil }
      defer { offset += count }
      return Array(bytes[offset..<offset + count])
    }

    mutating func int64() -> Int64? {
      unsigned(8).map { Int64(bitPattern: $0) }
    }

    mutating func string() -> String? {
      guard let length = unsigned(4).map(Int.init), length <= bytes.count - offset else { return nil }
      defer { offset += length }
      return bytes.withUnsafeBufferPointer { String(validatingUTF8Bytes: UnsafeBufferPointer(rebasing: $0[offset..<offset + length])) }
    }

    /// A big-endian unsigned integer of `width` bytes, read in place: a boot reads several of
    /// them for every entry.
    private mutating func unsigned(_ width: Int) -> UInt64? {
      guard bytes.count - offset >= width else { return nil }
      defer { offset += width }
      var value: UInt64 = 0
      for index in offset..<offset + width { value = value << 8 | UInt64(bytes[index]) }
      return value
    }
  }
}
