extension JSONValue {
  /// Compact JSON text with sorted keys (deterministic), UTF-8.
  ///
  /// The same value always gives the same text, so texts can be compared and their sizes
  /// measured. Integral numbers are written without a fraction; a number JSON cannot hold
  /// (infinity, NaN) is written as `null`, as JavaScript's `JSON.stringify` does.
  ///
  /// ```swift
  /// JSONValue.object(["b": .array([.number(1), .null]), "a": .string("x\n")]).jsonText
  /// // {"a":"x\n","b":[1,null]}
  /// ```
  public var jsonText: String {
    var text = ""
    write(to: &text)
    return text
  }

  // Written here rather than through JSONEncoder: the daemon measures every update it sends
  // (`StateDiff.encodedSize`), and this cannot fail, needs no Data round trip, and fixes the
  // key order and number format independently of the platform's Foundation. Inlinable so that
  // the modules that write lines get it specialised for String: unspecialised, every append
  // went through the protocol (callgrind: 4.8 k instructions for a three-member object).
  @inlinable package func write(to text: inout some JSONTextOutput) {
    switch self {
    case .null:
      text.append("null")
    case let .bool(bool):
      text.append(bool ? "true" : "false")
    case let .integer(integer):
      text.append(String(integer))
    case let .number(number):
      if let integer = Self.exactInteger(number) {
        text.append(String(integer))
      } else if number.isFinite {
        // Swift prints the shortest text that reads back as the same Double, and its forms
        // ("0.1", "1e-07", "1e+300") are all valid JSON numbers.
        text.append(String(number))
      } else {
        text.append("null")
      }
    case let .string(string):
      Self.writeString(string, to: &text)
    case let .array(array):
      text.append("[")
      for (index, element) in array.enumerated() {
        if index > 0 { text.append(",") }
        element.write(to: &text)
      }
      text.append("]")
    case let .object(object):
      text.append("{")
      // The members sorted once, with their values: no lookup of each key again.
      for (index, member) in object.sorted(by: { $0.key < $1.key }).enumerated() {
        if index > 0 { text.append(",") }
        Self.writeString(member.key, to: &text)
        text.append(":")
        member.value.write(to: &text)
      }
      text.append("}")
    }
  }

  /// Writes `string` as a JSON string: quotes and backslashes escaped, `\n`, `\r` and `\t` as
  /// such, every other control character as `\u00xx`, everything else as UTF-8. The audit
  /// export's schema fixes this form, so an export's bytes never change.
  @inlinable public static func writeString(_ string: String, to text: inout some JSONTextOutput) {
    // Most text needs no escape: then it goes whole (a state may hold notes of 150 KB, measured
    // after every action), and only text that needs one is taken a scalar at a time.
    if !string.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
      text.append("\"")
      text.append(string)
      text.append("\"")
      return
    }
    text.append("\"")
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": text.append("\\\"")
      case "\\": text.append("\\\\")
      case "\n": text.append("\\n")
      case "\r": text.append("\\r")
      case "\t": text.append("\\t")
      case "\u{00}"..."\u{1F}":
        let hex = String(scalar.value, radix: 16)
        text.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
      default:
        text.append(scalar)
      }
    }
    text.append("\"")
  }

  /// The length in bytes of ``jsonText``, counted without writing it: what the line limit and
  /// the choice between a diff and the whole state measure.
  ///
  /// ```swift
  /// JSONValue.object(["é": .integer(10)]).jsonTextByteCount   // 9, as {"é":10}
  /// ```
  public var jsonTextByteCount: Int {
    var count = JSONTextByteCount()
    write(to: &count)
    return count.bytes
  }
}

/// Where ``JSONValue``'s text goes: a string, or a count of its bytes. One writer for both, so
/// the size measured is always the size written.
public protocol JSONTextOutput {
  mutating func append(_ text: String)
  mutating func append(_ scalar: Unicode.Scalar)
}

extension String: JSONTextOutput {
  public mutating func append(_ scalar: Unicode.Scalar) { unicodeScalars.append(scalar) }
}

/// Counts the UTF-8 bytes of a JSON text instead of keeping it.
public struct JSONTextByteCount: JSONTextOutput {
  public private(set) var bytes = 0
  public init() {}
  public mutating func append(_ text: String) { bytes += text.utf8.count }
  public mutating func append(_ scalar: Unicode.Scalar) { bytes += UTF8.width(scalar) }
}
