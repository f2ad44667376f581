/// One line of an audit export read as JSON, strictly: a flat object whose members are strings,
/// integers or null, and nothing a general JSON reader would let through and then resolve in its
/// own way.
///
/// Foundation's reader keeps one of two members of the same name, reads `1.0` and `1e0` as the
/// integer 1, and skips a byte-order mark. An auditor's tool (or SQLite's `json_extract`) may
/// resolve each of those differently, so a line that verifies here could say something else
/// there. The export format has one reading of every line; anything else is refused, with the
/// reason.
enum ExportJSON {
  /// A member's value: the only kinds the format has.
  enum Value: Equatable {
    case string(String)
    case int(Int64)
    case null
  }

  /// Why a line is not one the format allows.
  struct Malformed: Error, Equatable {
    let reason: String
  }

  /// The members of the object on `line` (UTF-8, without its newline).
  static func object(_ line: [UInt8]) throws(Malformed) -> [String: Value] {
    var reader = Reader(bytes: line)
    return try reader.object()
  }

  private struct Reader {
    let bytes: [UInt8]
    var at = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func object() throws(Malformed) -> [String: Value] {
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
        throw Malformed(reason: "the line starts with a byte-order mark (U+FEFF), which JSON text must not have")
      }
      skipSpace()
      try expect(UInt8(ascii: "{"), "a JSON object")
      var members: [String: Value] = [:]
      skipSpace()
      if peek == UInt8(ascii: "}") {
        at += 1
      } else {
        while true {
          skipSpace()
          guard peek == UInt8(ascii: "\"") else { throw Malformed(reason: "a member name (a string) expected at byte \(at + 1)") }
          let name = try string()
          skipSpace()
          try expect(UInt8(ascii: ":"), "':' after the member name \(name)")
          skipSpace()
          let value = try value(of: name)
          guard members.updateValue(value, forKey: name) == nil else {
            throw Malformed(reason: "the member \(name) appears twice in one object")
          }
          skipSpace()
          if peek == UInt8(ascii: ",") {
            at += 1
            continue
          }
          try expect(UInt8(ascii: "}"), "',' or '}' after the member \(name)")
          break
        }
      }
      skipSpace()
      guard at == bytes.count else { throw Malformed(reason: "text after the object, at byte \(at + 1)") }
      return members
    }

    private var peek: UInt8? { at < bytes.count ? bytes[at] : nil }

    /// JSON's insignificant whitespace: space, tab, CR (and LF, which a line cannot hold).
    private mutating func skipSpace() {
      while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A { at += 1 }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(Malformed) {
      guard peek == byte else { throw Malformed(reason: "\(what) expected at byte \(at + 1)") }
      at += 1
    }

    private mutating func value(of name: String) throws(Malformed) -> Value {
      switch peek ?? 0 {
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .int(try integer(of: name))
      case UInt8(ascii: "n"):
        guard bytes[at...].starts(with: Array("null".utf8)) else { break }
        at += 4
        return .null
      default: break
      }
      throw Malformed(reason: "the member \(name) is not a string, an integer or null (the only values the format has)")
    }

    /// `-?(0|[1-9][0-9]*)` within Int64: the format's integers are hashed as 64-bit integers, so
    /// one written with a fraction or an exponent (`1.0`, `1e0`) is refused, not rounded.
    private mutating func integer(of name: String) throws(Malformed) -> Int64 {
      let start = at
      if peek == UInt8(ascii: "-") { at += 1 }
      let digitsStart = at
      while let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { at += 1 }
      let digits = bytes[digitsStart..<at]
      guard !digits.isEmpty else { throw Malformed(reason: "the member \(name) is not a number") }
      if let next = peek, next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
        throw Malformed(reason: "the member \(name) is an integer written with a fraction or an exponent; the format writes integers as plain digits")
      }
      guard digits.count == 1 || digits.first != UInt8(ascii: "0") else {
        throw Malformed(reason: "the member \(name) has a leading zero, which JSON does not allow")
      }
      guard let value = Int64(String(decoding: bytes[start..<at], as: UTF8.self)) else {
        throw Malformed(reason: "the member \(name) is outside the signed 64-bit range")
      }
      return value
    }

    /// A JSON string: valid UTF-8, no raw control character, escapes as JSON defines them, and
    /// no lone surrogate (it names no character, so no text could be hashed for it).
    private mutating func string() throws(Malformed) -> String {
      at += 1
      var scalars = String.UnicodeScalarView()
      var runStart = at
      func flushRun(_ end: Int) throws(Malformed) {
        guard runStart < end else { return }
        guard let text = String(validating: bytes[runStart..<end], as: UTF8.self) else {
          throw Malformed(reason: "a string that is not valid UTF-8")
        }
        scalars.append(contentsOf: text.unicodeScalars)
      }
      while true {
        guard let byte = peek else { throw Malformed(reason: "a string that does not end") }
        switch byte {
        case UInt8(ascii: "\""):
          try flushRun(at)
          at += 1
          return String(scalars)
        case UInt8(ascii: "\\"):
          try flushRun(at)
          at += 1
          scalars.append(try escape())
          runStart = at
        case 0..<0x20:
          throw Malformed(reason: "a raw control character (U+00\(byte < 16 ? "0" : "")\(String(byte, radix: 16))) in a string; JSON writes it escaped")
        default:
          at += 1
        }
      }
    }

    private mutating func escape() throws(Malformed) -> Unicode.Scalar {
      guard let byte = peek else { throw Malformed(reason: "a string that does not end") }
      at += 1
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
        let high = try hex4()
        if (0xD800..<0xDC00).contains(high) {
          guard bytes[at...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
            throw Malformed(reason: "a lone surrogate escape (\\u\(String(high, radix: 16))) in a string")
          }
          at += 2
          let low = try hex4()
          guard (0xDC00..<0xE000).contains(low) else {
            throw Malformed(reason: "a lone surrogate escape (\\u\(String(high, radix: 16))) in a string")
          }
          return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
        }
        guard let scalar = Unicode.Scalar(high) else {
          throw Malformed(reason: "a lone surrogate escape (\\u\(String(high, radix: 16))) in a string")
        }
        return scalar
      default:
        throw Malformed(reason: "an escape JSON does not have (\\\(Character(Unicode.Scalar(byte)))) in a string")
      }
    }

    private mutating func hex4() throws(Malformed) -> UInt32 {
      guard at + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[at..<at + 4], as: UTF8.self), radix: 16),
        bytes[at..<at + 4].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
      else { throw Malformed(reason: "a \\u escape without four hex digits") }
      at += 4
      return value
    }
  }
}
