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

  /// `2026-11-21T07:30:41.778Z`: ISO 8601, UTC, milliseconds.
  static func time(milliseconds: Int64) -> String {
    var seconds = time_t(milliseconds.floorDiv(1000))
    let millis = milliseconds - Int64(seconds) * 1000
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func pad(_ value: Int32, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
      + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(millis), 3))Z"
  }

  /// The milliseconds of a time written by ``time(milliseconds:)``; nil for anything else.
  static func milliseconds(fromTime text: String) -> Int64? {
    let digits = text.utf8.map { $0 }
    guard digits.count == 24, digits[23] == UInt8(ascii: "Z") else { return nil }
    func number(_ range: Range<Int>) -> Int32? {
      var value: Int32 = 0
      for index in range {
        let d = digits[index]
        guard d >= 48, d <= 57 else { return nil }
        value = value * 10 + Int32(d - 48)
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      let millis = number(20..<23)
    else { return nil }
    var parts = tm()
    parts.tm_year = year - 1900
    parts.tm_mon = month - 1
    parts.tm_mday = day
    parts.tm_hour = hour
    parts.tm_min = minute
    parts.tm_sec = second
    let seconds = timegm(&parts)
    let result = Int64(seconds) * 1000 + Int64(millis)
    return time(milliseconds: result) == text ? result : nil
  }
}

extension Int64 {
  fileprivate func floorDiv(_ divisor: Int64) -> Int64 {
    let quotient = self / divisor
    return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }
}
