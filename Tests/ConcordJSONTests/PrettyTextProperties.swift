import ConcordJSON
import PropertyRandom
import Testing

/// `concord state` prints ``JSONValue/prettyJSONText`` on a terminal and ``JSONValue/jsonText``
/// when piped: the same value. The model removes the whitespace between tokens (outside
/// strings, by walking the text's quotes and escapes) and must get the compact text back byte
/// for byte; every line is indented two spaces deeper than the bracket that opened it.
@Suite struct PrettyTextProperties {
  static func hostileString(_ random: inout PropertyRandom) -> String {
    random.pick([
      "", " ", "a b", "\u{0}", "\n\t\r", "\"quoted\"", "back\\slash", "caf\u{E9}", "cafe\u{301}", "👩‍💻", "日本語",
      "{\"not\": [json]}", ", : ", String(repeating: "x", count: random.int(0...300)),
    ])
  }

  static func randomValue(_ random: inout PropertyRandom, depth: Int = 0) -> JSONValue {
    switch random.int(0...(depth > 3 ? 4 : 7)) {
    case 0: return .null
    case 1: return .bool(random.chance(50))
    case 2: return .integer(random.pick([0, -1, 1 << 53, (1 << 53) + 1, .max, .min]))
    case 3: return .number(random.pick([0.5, -1e300, 0.1]))
    case 4: return .string(hostileString(&random))
    case 5: return .array((0..<random.int(0...4)).map { _ in randomValue(&random, depth: depth + 1) })
    default:
      var members: [String: JSONValue] = [:]
      for _ in 0..<random.int(0...4) { members[hostileString(&random)] = randomValue(&random, depth: depth + 1) }
      return .object(members)
    }
  }

  /// The text without the whitespace between tokens.
  static func minified(_ text: String) -> String {
    var out = ""
    var inString = false
    var escaped = false
    for scalar in text.unicodeScalars {
      if inString {
        out.unicodeScalars.append(scalar)
        if escaped { escaped = false } else if scalar == "\\" { escaped = true } else if scalar == "\"" { inString = false }
      } else if scalar == "\"" {
        inString = true
        out.unicodeScalars.append(scalar)
      } else if ![" ", "\n", "\t", "\r"].contains(scalar) {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  @Test func prettyTextIsTheCompactTextWithWhitespaceBetweenTokens() throws {
    for seed in PropertyRandom.seeds(from: 0x9E77_0000, count: 400) {
      var random = PropertyRandom(seed: seed)
      let value = Self.randomValue(&random)
      let pretty = value.prettyJSONText
      #expect(Self.minified(pretty) == value.jsonText, "seed \(seed)")
      #expect(try JSONValue(parsing: pretty) == value, "seed \(seed)")
      // Brackets open and close a level: each line is indented by the levels open before it.
      var depth = 0
      for line in pretty.split(separator: "\n", omittingEmptySubsequences: false) {
        let body = line.drop { $0 == " " }
        let closes = body.first == "]" || body.first == "}"
        #expect(line.count - body.count == 2 * (depth - (closes ? 1 : 0)), "seed \(seed): \(line)")
        if closes { depth -= 1 }
        if body.hasSuffix("[") || body.hasSuffix("{") { depth += 1 }
      }
    }
  }
}
