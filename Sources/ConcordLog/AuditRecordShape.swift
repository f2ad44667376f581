import ConcordJSON

/// The members each record of an audit export must have, and of which kind: the schema's
/// `required`, `additionalProperties: false`, types, patterns and bounds, as the verifier checks
/// them. Nothing unsigned may ride along, and nothing may be read two ways.
enum AuditRecordShape {
  /// What a member's value must be.
  enum Kind {
    case constant(String)
    case string
    case stringOrNull
    /// An integer of at least this.
    case integer(minimum: Int64)
    /// Lowercase hex of this many bytes.
    case hex(bytes: Int)
    case time
    case timeOrNull
    case outcome

    var text: String {
      switch self {
      case let .constant(value): return "\"\(value)\""
      case .string: return "a string"
      case .stringOrNull: return "a string or null"
      case let .integer(minimum): return minimum == .min ? "an integer" : "an integer of at least \(minimum)"
      case let .hex(bytes): return "\(bytes * 2) lowercase hex digits"
      case .time: return "a time written YYYY-MM-DDTHH:MM:SS.mmmZ"
      case .timeOrNull: return "a time written YYYY-MM-DDTHH:MM:SS.mmmZ, or null"
      case .outcome: return "\"applied\" or \"refused\""
      }
    }

    func admits(_ value: JSONValue) -> Bool {
      switch (self, value) {
      case let (.constant(expected), .string(actual)): return actual == expected
      case (.string, .string), (.stringOrNull, .string), (.stringOrNull, .null): return true
      case let (.integer(minimum), .integer(actual)): return actual >= minimum
      case let (.hex(count), .string(text)): return [UInt8](hex: text)?.count == count
      case let (.time, .string(text)), let (.timeOrNull, .string(text)):
        return AuditText.milliseconds(fromTime: text) != nil
      case (.timeOrNull, .null): return true
      case let (.outcome, .string(text)): return text == "applied" || text == "refused"
      default: return false
      }
    }
  }

  static let header: [String: Kind] = [
    "type": .constant("header"), "format": .constant(AuditExport.formatName), "log_id": .hex(bytes: 16),
    "from": .integer(minimum: 1), "to": .integer(minimum: 0), "count": .integer(minimum: 0),
    "first_time": .timeOrNull, "last_time": .timeOrNull, "public_key": .hex(bytes: 32),
    "prev_hash": .hex(bytes: 32),
  ]
  /// The header of a scoped export has one more member, the scope it discloses.
  static let scopedHeader = header.merging(["scope": .string]) { $1 }
  /// The header of a selection export has one more member, the selection in words (never
  /// beside a scope).
  static let selectionHeader = header.merging(["selection": .string]) { $1 }

  static let entry: [String: Kind] = [
    "type": .constant("entry"), "seq": .integer(minimum: 1), "time": .time, "user": .string,
    "client": .string, "cseq": .integer(minimum: .min), "scope": .string, "action": .string,
    "outcome": .outcome, "reason": .stringOrNull, "app": .string, "app_version": .integer(minimum: .min),
    "salt": .hex(bytes: EntryCodec.saltBytes), "prev_hash": .hex(bytes: 32), "hash": .hex(bytes: 32),
  ]

  static let stub: [String: Kind] = [
    "type": .constant("stub"), "seq": .integer(minimum: 1), "prev_hash": .hex(bytes: 32), "hash": .hex(bytes: 32),
  ]

  static let footer: [String: Kind] = [
    "type": .constant("footer"), "seq": .integer(minimum: 0), "chain_head": .hex(bytes: 32),
    "signature": .hex(bytes: 64),
  ]

  /// The shape of a record of type `type`, or nil for a type the format does not have.
  static func of(type: String, members: [String: JSONValue]) -> [String: Kind]? {
    switch type {
    case "header":
      switch (members["scope"], members["selection"]) {
      case (nil, nil): return header
      case (_?, nil): return scopedHeader
      default: return selectionHeader
      }
    case "entry": return entry
    case "stub": return stub
    case "footer": return footer
    default: return nil
    }
  }

  /// Why `members` do not have `shape`, or nil when they do. Members are checked in sorted
  /// order, so the same line always gets the same reason.
  static func violation(of shape: [String: Kind], by members: [String: JSONValue], type: String) -> String? {
    if let extra = members.keys.sorted().first(where: { shape[$0] == nil }) {
      return "unknown member \(extra) in a \(type) record"
    }
    for (name, kind) in shape.sorted(by: { $0.key < $1.key }) {
      guard let value = members[name] else { return "a \(type) record without its \(name) member" }
      guard kind.admits(value) else { return "the \(name) of a \(type) record must be \(kind.text)" }
    }
    return nil
  }
}
