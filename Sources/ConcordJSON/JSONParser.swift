/// Parses JSON text (RFC 8259) into a ``JSONValue``, straight from UTF-8 bytes.
///
/// The daemon parses every line a window sends; going through `JSONDecoder` cost it more than
/// reducing and logging the action together. This parser is strict — no trailing commas, no
/// comments, no invalid UTF-8, no lone surrogate escapes, no object that names a member twice
/// (where parsers disagree on which one counts) — and bounded: nesting deeper than
/// ``maximumDepth`` is refused rather than allowed to exhaust the stack. Integers written as
/// such are read exactly (``JSONValue/integer(_:)``), never through a `Double`.
///
/// ```swift
/// let value = try JSONParser.parse(Array(#"{"a":[1,"x"]}"#.utf8))
/// ```
public enum JSONParser {
  /// Arrays and objects nested deeper than this are refused.
  public static let maximumDepth = 256

  /// What was wrong with the text, and the byte offset where it was found.
  public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public var offset: Int
    public var description: String { "\(reason) at byte \(offset)" }

    public init(reason: String, offset: Int) {
      self.reason = reason
      self.offset = offset
    }
  }

  public static func parse(_ bytes: some Collection<UInt8>) throws(Failure) -> JSONValue {
    let parsed: Result<JSONValue, Failure>? = bytes.withContiguousStorageIfAvailable { buffer in
      Result { () throws(Failure) in try parse(buffer: buffer) }
    }
    if let parsed { return try parsed.get() }
    return try Array(bytes).withUnsafeBufferPointer { buffer throws(Failure) in try parse(buffer: buffer) }
  }

  private static func parse(buffer: UnsafeBufferPointer<UInt8>) throws(Failure) -> JSONValue {
    var reader = Reader(bytes: buffer)
    reader.skipWhitespace()
    let value = try reader.value(depth: 0)
    reader.skipWhitespace()
    guard reader.offset == buffer.count else { throw reader.failure("unexpected text after the value") }
    return value
  }

  private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    func failure(_ reason: String) -> Failure { Failure(reason: reason, offset: offset) }

    var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    mutating func skipWhitespace() {
      while offset < bytes.count {
        switch bytes[offset] {
        case 0x20, 0x09, 0x0A, 0x0D: offset += 1
        default: return
        }
      }
    }

    mutating func expect(_ literal: StaticString, _ value: JSONValue) throws(Failure) -> JSONValue {
      let count = literal.utf8CodeUnitCount
      guard offset + count <= bytes.count else { throw failure("unexpected end of text") }
      for index in 0..<count where bytes[offset + index] != literal.utf8Start[index] {
        throw failure("unexpected character")
      }
      offset += count
      return value
    }

    mutating func value(depth: Int) throws(Failure) -> JSONValue {
      guard let byte = current else { throw failure("unexpected end of text") }
      switch byte {
      case UInt8(ascii: "{"): return try object(depth: depth + 1)
      case UInt8(ascii: "["): return try array(depth: depth + 1)
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "t"): return try expect("true", .bool(true))
      case UInt8(ascii: "f"): return try expect("false", .bool(false))
      case UInt8(ascii: "n"): return try expect("null", .null)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
      default: throw failure("unexpected character")
      }
    }

    mutating func array(depth: Int) throws(Failure) -> JSONValue {
      guard depth <= JSONParser.maximumDepth else { throw failure("nested too deeply") }
      offset += 1
      var elements: [JSONValue] = []
      skipWhitespace()
      if current == UInt8(ascii: "]") {
        offset += 1
        return .array(elements)
      }
      while true {
        skipWhitespace()
        elements.append(try value(depth: depth))
        skipWhitespace()
        switch current {
        case UInt8(ascii: ","): offset += 1
        case UInt8(ascii: "]"):
          offset += 1
          return .array(elements)
        case nil: throw failure("unexpected end of text")
        default: throw failure("expected , or ]")
        }
      }
    }

    mutating func object(depth: Int) throws(Failure) -> JSONValue {
      guard depth <= JSONParser.maximumDepth else { throw failure("nested too deeply") }
      offset += 1
      var members: [String: JSONValue] = [:]
      skipWhitespace()
      if current == UInt8(ascii: "}") {
        offset += 1
        return .object(members)
      }
      while true {
        skipWhitespace()
        guard current == UInt8(ascii: "\"") else { throw failure(current == nil ? "unexpected end of text" : "expected a key") }
        let keyOffset = offset
        let key = try string()
        skipWhitespace()
        guard current == UInt8(ascii: ":") else { throw failure("expected :") }
        offset += 1
        skipWhitespace()
        guard members.updateValue(try value(depth: depth), forKey: key) == nil else {
          throw Failure(reason: "the member \"\(key)\" is named twice", offset: keyOffset)
        }
        skipWhitespace()
        switch current {
        case UInt8(ascii: ","): offset += 1
        case UInt8(ascii: "}"):
          offset += 1
          return .object(members)
        case nil: throw failure("unexpected end of text")
        default: throw failure("expected , or }")
        }
      }
    }

    mutating func string() throws(Failure) -> String {
      offset += 1
      let start = offset
      // The common case, no escapes: the bytes between the quotes are the string.
      while offset < bytes.count {
        let byte = bytes[offset]
        if byte == UInt8(ascii: "\"") {
          let text = try validUTF8(start..<offset)
          offset += 1
          return text
        }
        if byte == UInt8(ascii: "\\") { break }
        guard byte >= 0x20 else { throw failure("a control character in a string") }
        offset += 1
      }
      var scalars = String.UnicodeScalarView()
      scalars.append(contentsOf: try validUTF8(start..<offset).unicodeScalars)
      while offset < bytes.count {
        let byte = bytes[offset]
        switch byte {
        case UInt8(ascii: "\""):
          offset += 1
          return String(scalars)
        case UInt8(ascii: "\\"):
          offset += 1
          scalars.append(try escape())
        case ..<0x20:
          throw failure("a control character in a string")
        default:
          let runStart = offset
          while offset < bytes.count, bytes[offset] != UInt8(ascii: "\""), bytes[offset] != UInt8(ascii: "\\"),
            bytes[offset] >= 0x20
          {
            offset += 1
          }
          scalars.append(contentsOf: try validUTF8(runStart..<offset).unicodeScalars)
        }
      }
      throw failure("unterminated string")
    }

    func validUTF8(_ range: Range<Int>) throws(Failure) -> String {
      guard let text = String(validatingUTF8Bytes: UnsafeBufferPointer(rebasing: bytes[range])) else {
        throw Failure(reason: "invalid UTF-8 in a string", offset: range.lowerBound)
      }
      return text
    }

    mutating func escape() throws(Failure) -> Unicode.Scalar {
      guard let byte = current else { throw failure("unterminated string") }
      offset += 1
      switch byte {
      case UInt8(ascii: "\""): return "\""
      case UInt8(ascii: "\\"): return "\\"
      case UInt8(ascii: "/"): return "/"
      case UInt8(ascii: "b"): return "\u{08}"
      case UInt8(ascii: "f"): return "\u{0C}"
      case UInt8(ascii: "n"): return "\n"
      case UInt8(ascii: "r"): return "\r"
      case UInt8(ascii: "t"): return "\t"
      case UInt8(ascii: "u"):
        let unit = try hex4()
        if (0xD800..<0xDC00).contains(unit) {
          guard current == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u") else {
            throw failure("a lone surrogate escape")
          }
          offset += 2
          let low = try hex4()
          guard (0xDC00..<0xE000).contains(low) else { throw failure("a lone surrogate escape") }
          return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
        }
        guard let scalar = Unicode.Scalar(unit) else { throw failure("a lone surrogate escape") }
        return scalar
      default:
        offset -= 1
        throw failure("an invalid escape")
      }
    }

    mutating func hex4() throws(Failure) -> UInt32 {
      guard offset + 4 <= bytes.count else { throw failure("unterminated string") }
      var value: UInt32 = 0
      for _ in 0..<4 {
        let byte = bytes[offset]
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
        default: throw failure("an invalid \\u escape")
        }
        value = value << 4 | UInt32(digit)
        offset += 1
      }
      return value
    }

    mutating func number() throws(Failure) -> JSONValue {
      let start = offset
      var integral = true
      if current == UInt8(ascii: "-") { offset += 1 }
      guard let first = current, first.isDigit else { throw failure("a number without digits") }
      if first == UInt8(ascii: "0") {
        offset += 1
      } else {
        skipDigits()
      }
      if current == UInt8(ascii: ".") {
        integral = false
        offset += 1
        guard current?.isDigit == true else { throw failure("a number without digits after the point") }
        skipDigits()
      }
      if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
        integral = false
        offset += 1
        if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
        guard current?.isDigit == true else { throw failure("a number without digits in its exponent") }
        skipDigits()
      }
      if integral, let integer = integer(start..<offset) { return .integer(integer) }
      let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
      guard let value = Double(text), value.isFinite else { throw Failure(reason: "a number out of range", offset: start) }
      return .number(value)
    }

    /// The digits in `range` (after an optional minus) as an `Int64`, exactly; nil past its range.
    func integer(_ range: Range<Int>) -> Int64? {
      var index = range.lowerBound
      let negative = bytes[index] == UInt8(ascii: "-")
      if negative { index += 1 }
      // Accumulated negatively: -2^63 has no positive counterpart.
      var value: Int64 = 0
      while index < range.upperBound {
        let (shifted, overflowMultiply) = value.multipliedReportingOverflow(by: 10)
        let (next, overflowSubtract) = shifted.subtractingReportingOverflow(Int64(bytes[index] - UInt8(ascii: "0")))
        guard !overflowMultiply, !overflowSubtract else { return nil }
        value = next
        index += 1
      }
      if negative { return value }
      return value == .min ? nil : -value
    }

    mutating func skipDigits() {
      while let byte = current, byte.isDigit { offset += 1 }
    }
  }
}

extension UInt8 {
  fileprivate var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
}
