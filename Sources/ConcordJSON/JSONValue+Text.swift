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
  // key order and number format independently of the platform's Foundation.
  package func write(to text: inout String) {
    switch self {
    case .null:
      text += "null"
    case let .bool(bool):
      text += bool ? "true" : "false"
    case let .integer(integer):
      text += String(integer)
    case let .number(number):
      if let integer = Self.exactInteger(number) {
        text += String(integer)
      } else if number.isFinite {
        // Swift prints the shortest text that reads back as the same Double, and its forms
        // ("0.1", "1e-07", "1e+300") are all valid JSON numbers.
        text += String(number)
      } else {
        text += "null"
      }
    case let .string(string):
      Self.writeString(string, to: &text)
    case let .array(array):
      text += "["
      for (index, element) in array.enumerated() {
        if index > 0 { text += "," }
        element.write(to: &text)
      }
      text += "]"
    case let .object(object):
      text += "{"
      for (index, key) in object.keys.sorted().enumerated() {
        if index > 0 { text += "," }
        Self.writeString(key, to: &text)
        text += ":"
        object[key]!.write(to: &text)
      }
      text += "}"
    }
  }

  /// Writes `string` as a JSON string: quotes and backslashes escaped, `\n`, `\r` and `\t` as
  /// such, every other control character as `\u00xx`, everything else as UTF-8. The audit
  /// export's schema fixes this form, so an export's bytes never change.
  public static func writeString(_ string: String, to text: inout String) {
    text += "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case "\u{00}"..."\u{1F}":
        let hex = String(scalar.value, radix: 16)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default:
        text.unicodeScalars.append(scalar)
      }
    }
    text += "\""
  }
}
