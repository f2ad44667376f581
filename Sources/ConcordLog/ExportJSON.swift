import ConcordJSON

/// One line of an audit export read as JSON, strictly: a flat object whose members are strings,
/// integers or null, and nothing a general JSON reader would let through and then resolve in its
/// own way.
///
/// Foundation's reader keeps one of two members of the same name, reads `1.0` and `1e0` as the
/// integer 1, and skips a byte-order mark. An auditor's tool (or SQLite's `json_extract`) may
/// resolve each of those differently, so a line that verifies here could say something else
/// there. The export format has one reading of every line: the line goes through the same strict
/// parser as the wire (``JSONParser``: no member named twice, no invalid UTF-8, no lone
/// surrogate, integers read from their digits), and anything the format does not have is refused
/// here, with the reason.
enum ExportJSON {
  /// Why a line is not one the format allows.
  struct Malformed: Error, Equatable {
    let reason: String
  }

  /// The members of the object on `line` (UTF-8, without its newline): strings, integers
  /// (``JSONValue/integer(_:)``) and nulls, the only values the format has.
  static func object(_ line: [UInt8]) throws(Malformed) -> [String: JSONValue] {
    if line.starts(with: [0xEF, 0xBB, 0xBF]) {
      throw Malformed(reason: "the line starts with a byte-order mark (U+FEFF), which JSON text must not have")
    }
    let parsed: JSONValue
    do {
      parsed = try JSONParser.parse(line)
    } catch {
      throw Malformed(reason: "not JSON as the format writes it: \(error)")
    }
    guard case let .object(members) = parsed else { throw Malformed(reason: "a line is one JSON object") }
    for (name, member) in members {
      switch member {
      case .string, .integer, .null: continue
      case .number:
        throw Malformed(
          reason: "the member \(name) is a number written with a fraction or an exponent, or outside the signed 64-bit range; the format writes integers as plain digits")
      case .bool, .array, .object:
        throw Malformed(reason: "the member \(name) is not a string, an integer or null (the only values the format has)")
      }
    }
    return members
  }
}
