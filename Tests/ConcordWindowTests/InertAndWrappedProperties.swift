import ConcordJSON
import PropertyRandom
import Testing

@testable import ConcordWindow

/// Two boundaries of what a window draws, held to models written here: a state with other
/// people's text goes to a renderer with no control character in any string or key, and
/// unchanged when it had none; an outcome wraps onto rows no wider than the window, by a width
/// table of the characters used (East Asian wide: 2, combining: 0, else 1), losing no word.
@Suite struct InertAndWrappedProperties {
  static let pieces = ["Fix", "login", "日本語", "cafe\u{301}", "café", "👩‍💻", "a-very-long-word-that-will-not-fit-anywhere", "#12"]
  static let controls: [Unicode.Scalar] = ["\u{1B}", "\n", "\u{07}", "\u{0}", "\u{7F}", "\u{85}", "\u{9B}", "\u{202E}", "\u{2028}"]

  static func text(_ random: inout PropertyRandom, controls: Bool) -> String {
    var text = ""
    for index in 0..<random.int(0...8) {
      if index > 0 { text += random.chance(20) ? "  " : " " }
      text += random.pick(pieces)
      if controls, random.chance(30) { text.unicodeScalars.append(random.pick(Self.controls)) }
    }
    return text
  }

  static func value(_ random: inout PropertyRandom, controls: Bool, depth: Int = 0) -> JSONValue {
    switch random.int(0...(depth > 2 ? 2 : 4)) {
    case 0: return .integer(Int64(random.int(-3...3)))
    case 1, 2: return .string(text(&random, controls: controls))
    case 3: return .array((0..<random.int(0...3)).map { _ in value(&random, controls: controls, depth: depth + 1) })
    default:
      var members: [String: JSONValue] = [:]
      for _ in 0..<random.int(0...3) { members[text(&random, controls: controls)] = value(&random, controls: controls, depth: depth + 1) }
      return .object(members)
    }
  }

  static func strings(_ value: JSONValue) -> [String] {
    switch value {
    case let .string(text): [text]
    case let .array(elements): elements.flatMap(strings)
    case let .object(members): members.flatMap { [$0.key] + strings($0.value) }
    default: []
    }
  }

  static func acts(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.generalCategory == .control || [0x202E, 0x2028].contains(scalar.value)
  }

  @Test func aStateReachesTheRendererWithoutControlsAndOtherwiseAsItWas() {
    for seed in PropertyRandom.seeds(from: 0x1AE7_0000, count: 500) {
      var random = PropertyRandom(seed: seed)
      let hostile = Self.value(&random, controls: true)
      #expect(!Self.strings(hostile.inert).joined().unicodeScalars.contains(where: Self.acts), "seed \(seed)")
      let plain = Self.value(&random, controls: false)
      #expect(plain.inert.jsonText == plain.jsonText, "seed \(seed)")
    }
  }

  static func cells(_ scalar: Unicode.Scalar) -> Int {
    switch scalar.value {
    case 0x0300...0x036F, 0x200D, 0xFE0F: 0
    case 0x3000...0x9FFF, 0x1F300...0x1FAFF: 2
    default: 1
    }
  }

  @Test func anOutcomeWrapsWithinTheWidthAndLosesNoWord() {
    for seed in PropertyRandom.seeds(from: 0x3A11_0000, count: 500) {
      var random = PropertyRandom(seed: seed)
      let text = Self.text(&random, controls: false)
      let width = random.int(12...60)
      let rows = WindowModel.wrapped(text, width: width, rows: 100)
      for row in rows {
        #expect(row.unicodeScalars.reduce(0) { $0 + Self.cells($1) } <= width, "seed \(seed): \(row) wider than \(width)")
      }
      let words = { (text: String) in text.split(whereSeparator: \.isWhitespace).joined() }
      #expect(words(rows.joined()) == words(text), "seed \(seed): \(rows)")
      for line in [text] where !line.isEmpty {
        let help = WindowModel.wrappedHelp("   " + line, width: width)
        #expect(help.allSatisfy { $0.unicodeScalars.reduce(0) { $0 + Self.cells($1) } <= width }, "seed \(seed): \(help)")
        #expect(words(help.joined()) == words(line), "seed \(seed): \(help)")
      }
    }
  }
}
