import ConcordJSON
import Foundation

/// The formats of an audit export. JSONL is canonical and verifiable; CSV is the same records
/// for spreadsheets and databases, a plain CSV file, with the header and footer in a file of
/// their own beside it (``ActionLog/exportAudit(format:from:through:scope:metadata:to:)``).
public enum AuditFormat: String, Sendable, CaseIterable {
  case jsonl
  case csv
}

/// Small, exact encoders for export lines: fixed key order, no whitespace, so that the same log
/// always exports to the same bytes.
enum AuditText {
  static func json(_ fields: KeyValuePairs<String, JSONField>) -> String {
    json(fields.map { ($0.key, $0.value) })
  }

  static func json(_ fields: [(String, JSONField)]) -> String {
    var out = "{"
    var first = true
    for (key, value) in fields {
      if !first { out += "," }
      first = false
      out += quote(key) + ":" + value.text
    }
    return out + "}"
  }

  enum JSONField {
    case string(String)
    case int(Int64)
    case null

    var text: String {
      switch self {
      case let .string(value): return AuditText.quote(value)
      case let .int(value): return String(value)
      case .null: return "null"
      }
    }
  }

  /// A JSON string as the export schema fixes it (``JSONValue/writeString(_:to:)``).
  static func quote(_ string: String) -> String {
    var out = ""
    JSONValue.writeString(string, to: &out)
    return out
  }

  /// One CSV field. Text a spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`,
  /// tab or CR) gets a leading `'`, as OWASP advises: users write actions, scopes and reasons,
  /// and an auditor opening the file must not run them. Text that starts with `'` gets one too,
  /// so the guard can be undone without guessing: a field that starts with `'` had exactly one
  /// added, and removing it gives back the exact text the chain hash covers. The JSONL export
  /// keeps the exact text.
  static func csvField(_ value: String) -> String {
    var value = value
    if let first = value.unicodeScalars.first, csvGuarded.contains(first) { value = "'" + value }
    // By scalar, not by Character: "\r\n" is one Character, equal to neither "\r" nor "\n".
    guard value.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
      return value
    }
    return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// The first characters that make a CSV field guarded with a leading `'`.
  static let csvGuarded: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r", "'"]

  /// `2026-11-21T07:30:41.778Z`: ISO 8601, UTC, milliseconds (``JSONDate``'s spelling). A time
  /// outside the years 0000–9999, which no clock gives, is written as its number of milliseconds,
  /// which no reader takes as a time.
  static func time(milliseconds: Int64) -> String {
    JSONDate.text(milliseconds: milliseconds) ?? String(milliseconds)
  }

  /// The milliseconds of a time written by ``time(milliseconds:)``; nil for anything else.
  static func milliseconds(fromTime text: String) -> Int64? {
    JSONDate.milliseconds(canonical: text)
  }
}
