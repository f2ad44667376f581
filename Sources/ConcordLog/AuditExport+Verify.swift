import ConcordJSON
import Foundation

extension AuditExport {
  /// The result of verifying an export.
  public struct Verification: Sendable, Equatable {
    public struct Failure: Sendable, Equatable, CustomStringConvertible {
      /// The line (from 1, empty lines not counted) where the export stops being sound.
      public let line: Int
      /// The seq the failing record holds, or — when it cannot be read, or is missing — the seq
      /// it should have held.
      public let seq: Int64?
      public let reason: String
      public var description: String {
        "line \(line)" + (seq.map { " (seq \($0))" } ?? "") + ": \(reason)"
      }
    }

    /// Entries whose hash was recomputed and found to chain.
    public let verifiedEntries: Int64
    /// Hash-only stubs (of entries outside a scoped export's scope) found to chain.
    public let stubs: Int64
    public let failure: Failure?
    /// True when the signature was checked against the key in the export's own header, not a
    /// key the auditor supplied (which proves integrity, not origin).
    public let usedHeaderKey: Bool
    public var isSound: Bool { failure == nil }
  }

  /// Verifies a JSONL export: every line read strictly (one flat JSON object, no duplicate
  /// member, integers as plain digits, no byte-order mark, exactly the members the schema lists),
  /// the header, every entry's hash recomputed from its fields and every stub's hash chained to
  /// the one before, the count, and the footer's signature over the chain head.
  ///
  /// - Parameter publicKey: the log's public key as the auditor received it (the `.pub` file).
  ///   When nil, the key in the export's header is used, and the result says so.
  public static func verify(lines: some Sequence<String>, publicKey: [UInt8]? = nil) -> Verification {
    verify(byteLines: lines.lazy.map { Array($0.utf8) }, publicKey: publicKey)
  }

  /// Verifies the JSONL export in the file at `url`, reading it line by line.
  public static func verify(fileAt url: URL, publicKey: [UInt8]? = nil) throws -> Verification {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    return verify(byteLines: LineReader(handle: handle, maximumLineBytes: maximumLineBytes), publicKey: publicKey)
  }

  static func verify(byteLines lines: some Sequence<[UInt8]>, publicKey: [UInt8]?) -> Verification {
    var state = VerifierState(trustedKey: publicKey)
    for line in lines where !line.isEmpty {
      if let failure = state.take(line) { return state.result(failure) }
    }
    return state.result(state.finish())
  }
}

/// The verifier's walk through an export, one line at a time.
private struct VerifierState {
  let trustedKey: [UInt8]?
  var number = 0
  var entries: Int64 = 0
  var stubs: Int64 = 0
  var usedHeaderKey = false
  var logID: [UInt8] = []
  var key: [UInt8] = []
  var previous: [UInt8] = []
  /// The seq the next entry or stub must have.
  var expectedSeq: Int64 = 0
  var declaredCount: Int64 = 0
  var declaredTo: Int64 = 0
  var declaredScope: String?
  /// A selection export's description: its stubs hide what the selection left out.
  var declaredSelection: String?
  var declaredTimes: (first: String?, last: String?) = (nil, nil)
  var times: (first: Int64?, last: Int64?) = (nil, nil)
  var sawFooter = false

  init(trustedKey: [UInt8]?) { self.trustedKey = trustedKey }

  typealias Failure = AuditExport.Verification.Failure

  func result(_ failure: Failure?) -> AuditExport.Verification {
    AuditExport.Verification(verifiedEntries: entries, stubs: stubs, failure: failure, usedHeaderKey: usedHeaderKey)
  }

  func fail(_ reason: String, seq: Int64? = nil) -> Failure {
    Failure(line: number, seq: seq, reason: reason)
  }

  /// Checks one non-empty line; the failure, or nil when it holds.
  mutating func take(_ line: [UInt8]) -> Failure? {
    number += 1
    // The seq this line should hold, named when the line itself cannot say.
    let placeSeq: Int64? = number > 1 ? expectedSeq : nil
    guard !sawFooter else { return fail("there is text after the footer") }
    guard line.count <= AuditExport.maximumLineBytes else {
      return fail("the line is longer than any record of an export (at most \(AuditExport.maximumLineBytes) bytes)", seq: placeSeq)
    }
    let members: [String: JSONValue]
    do {
      members = try ExportJSON.object(line)
    } catch {
      return fail(error.reason, seq: placeSeq)
    }
    guard case let .string(type)? = members["type"] else { return fail("a record without a type", seq: placeSeq) }
    guard let shape = AuditRecordShape.of(type: type, members: members) else {
      return fail("unknown record type \(type)", seq: placeSeq)
    }
    let fields = Fields(members)
    let seq = fields.int("seq") ?? placeSeq
    if let violation = AuditRecordShape.violation(of: shape, by: members, type: type) {
      return fail(violation, seq: type == "header" ? nil : seq)
    }
    guard (number == 1) == (type == "header") else {
      return number == 1
        ? fail("the first line is not a \(AuditExport.formatName) header")
        : fail("a second header", seq: placeSeq)
    }
    switch type {
    case "header": return header(fields)
    case "entry": return entry(fields)
    case "stub": return stub(fields)
    default: return footer(fields)
    }
  }

  /// After the last line: the footer must have been there.
  func finish() -> Failure? {
    guard number > 0 else { return fail("the export is empty") }
    guard sawFooter else {
      let cut = expectedSeq <= declaredTo ? ", after seq \(expectedSeq - 1) of the \(declaredTo) its header declares" : ""
      return fail("the footer is missing: the export was cut short\(cut)", seq: expectedSeq)
    }
    return nil
  }

  private mutating func header(_ fields: Fields) -> Failure? {
    let id = fields.hex("log_id")!
    let headerKey = fields.hex("public_key")!
    let prev = fields.hex("prev_hash")!
    let from = fields.int("from")!
    logID = id
    usedHeaderKey = trustedKey == nil
    key = trustedKey ?? headerKey
    if let trustedKey, headerKey != trustedKey {
      return fail("the header names another public key than the one supplied")
    }
    if from == 1, prev != EntryCodec.genesis(logID: id) {
      return fail("an export from seq 1 must start from the log's genesis hash")
    }
    previous = prev
    expectedSeq = from
    declaredCount = fields.int("count")!
    declaredTo = fields.int("to")!
    declaredScope = fields.string("scope")
    declaredSelection = fields.string("selection")
    declaredTimes = (fields.string("first_time"), fields.string("last_time"))
    return nil
  }

  /// The seq and prev_hash of the next entry or stub: it must follow the one before.
  private func follows(_ fields: Fields) -> Failure? {
    let seq = fields.int("seq")!
    if seq > expectedSeq {
      let missing = seq == expectedSeq + 1 ? "entry \(expectedSeq) is" : "entries \(expectedSeq) to \(seq - 1) are"
      return fail("\(missing) missing: expected seq \(expectedSeq), found \(seq)", seq: expectedSeq)
    }
    guard seq == expectedSeq else { return fail("expected seq \(expectedSeq)", seq: seq) }
    guard fields.hex("prev_hash") == previous else {
      return fail("its prev_hash is not the hash before it", seq: seq)
    }
    return nil
  }

  private mutating func entry(_ fields: Fields) -> Failure? {
    if let failure = follows(fields) { return failure }
    let seq = fields.int("seq")!
    // Bytes, as the export wrote them: two spellings of one name are two scopes to an auditor.
    if let declaredScope, !(fields.string("scope")?.utf8.elementsEqual(declaredScope.utf8) ?? false) {
      return fail("an entry of another scope than the export's (\(declaredScope)); it should be a stub", seq: seq)
    }
    let refused = fields.string("outcome") == "refused"
    guard refused == (fields.string("reason") != nil) else {
      return fail(refused ? "a refused entry without a reason" : "an applied entry carries a reason", seq: seq)
    }
    let at = AuditText.milliseconds(fromTime: fields.string("time")!)!
    times = (min(times.first ?? at, at), max(times.last ?? at, at))
    let hash = recomputeHash(fields, seq: seq, at: at)
    guard fields.hex("hash") == hash else {
      return fail("its hash does not match its contents", seq: seq)
    }
    previous = hash
    expectedSeq += 1
    entries += 1
    return nil
  }

  /// A stub carries no contents: its hash is taken as given and chained. The footer's signature
  /// covers it all the same, through every hash after it.
  private mutating func stub(_ fields: Fields) -> Failure? {
    if let failure = follows(fields) { return failure }
    let seq = fields.int("seq")!
    guard declaredScope != nil || declaredSelection != nil else {
      return fail("a stub in an export whose header names no scope or selection", seq: seq)
    }
    previous = fields.hex("hash")!
    expectedSeq += 1
    stubs += 1
    return nil
  }

  private mutating func footer(_ fields: Fields) -> Failure? {
    sawFooter = true
    let seq = fields.int("seq")!
    let head = fields.hex("chain_head")!
    let last = expectedSeq - 1
    if seq > last {
      let missing = seq == expectedSeq ? "entry \(expectedSeq) is" : "entries \(expectedSeq) to \(seq) are"
      return fail("\(missing) missing: the export was cut before its footer, which vouches for seq \(seq)", seq: expectedSeq)
    }
    guard seq == last else {
      return fail("the footer vouches for seq \(seq), but the export runs to \(last)", seq: seq)
    }
    guard head == previous else {
      return fail("the footer's chain head is not the last record's hash", seq: seq)
    }
    guard entries + stubs == declaredCount else {
      return fail("the header declares \(declaredCount) records, the export holds \(entries + stubs)")
    }
    guard declaredTo == seq else {
      return fail("the header's range ends at \(declaredTo), the export at \(seq)")
    }
    guard declaredTimes.first == times.first.map(AuditText.time(milliseconds:)),
      declaredTimes.last == times.last.map(AuditText.time(milliseconds:))
    else { return fail("the header's first and last times are not the entries' times") }
    let checkpoint = Checkpoint(seq: seq, head: head, signature: fields.hex("signature")!)
    guard checkpoint.isSigned(by: key, logID: logID) else {
      return fail("the footer's signature does not verify with the public key", seq: seq)
    }
    return nil
  }

  /// The chain hash of an entry, rebuilt from its fields (whose shape was checked).
  private func recomputeHash(_ fields: Fields, seq: Int64, at: Int64) -> [UInt8] {
    let outcome: ActionOutcome =
      fields.string("outcome") == "applied" ? .applied : .refused(reason: fields.string("reason")!)
    let payload = EntryCodec.encode(
      EntryCodec.Payload(
        salt: fields.hex("salt")!, user: fields.string("user")!, scope: fields.string("scope")!,
        action: fields.string("action")!, outcome: outcome, app: fields.string("app")!,
        appVersion: Int(fields.int("app_version")!)))
    return EntryCodec.chainHash(
      previous: previous, seq: seq, atMilliseconds: at, client: fields.string("client")!,
      cseq: fields.int("cseq")!, payload: payload)
  }

  private struct Fields {
    let members: [String: JSONValue]
    init(_ members: [String: JSONValue]) { self.members = members }
    func string(_ key: String) -> String? {
      guard case let .string(value)? = members[key] else { return nil }
      return value
    }
    func int(_ key: String) -> Int64? { members[key]?.int64 }
    func hex(_ key: String) -> [UInt8]? { string(key).flatMap { [UInt8](hex: $0) } }
  }
}
