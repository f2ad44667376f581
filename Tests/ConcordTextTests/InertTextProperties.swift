import ConcordText
import PropertyRandom
import Testing

/// Text made drawable, held to Unicode's own categories rather than to InertText's list: what
/// comes out holds no control (general category Cc) and no bidirectional control or line
/// separator; each is replaced as the documentation says and everything else comes out as it
/// went in, in order (NFC and NFD kept apart); text without controls is the same bytes.
@Suite struct InertTextProperties {
  static let bidiAndSeparators: Set<UInt32> = [0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x2028, 0x2029]

  static func acts(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.generalCategory == .control || bidiAndSeparators.contains(scalar.value)
  }

  static func randomText(_ random: inout PropertyRandom) -> String {
    let pieces: [String] = ["a", "Fix login", "日本", "cafe\u{301}", "café", "👩‍💻", "␛", " ", "<U+0085>"]
    var text = ""
    for _ in 0..<random.int(0...12) {
      if random.chance(40) {
        text.unicodeScalars.append(Unicode.Scalar(random.pick([UInt32(0), 7, 8, 9, 10, 13, 27, 31, 127, 0x80, 0x85, 0x9B, 0x9F, 0x202E, 0x2028, 0x2066]))!)
      } else {
        text += random.pick(pieces)
      }
    }
    return text
  }

  @Test func whatComesOutCannotActOnATerminalAndKeepsEverythingElse() {
    for seed in PropertyRandom.seeds(from: 0x1E27_0000, count: 2_000) {
      var random = PropertyRandom(seed: seed)
      let text = Self.randomText(&random)
      let shown = InertText.shown(text)
      #expect(!shown.unicodeScalars.contains(where: Self.acts), "seed \(seed): \(shown.debugDescription)")
      // As the documentation says it: C0 controls and DEL as their control pictures, the
      // others as <U+XXXX>, everything else as it was.
      var expected = String.UnicodeScalarView()
      for scalar in text.unicodeScalars {
        if !Self.acts(scalar) {
          expected.append(scalar)
        } else if scalar.value < 0x20 || scalar.value == 0x7F {
          expected.append(Unicode.Scalar(scalar.value == 0x7F ? 0x2421 : 0x2400 + scalar.value)!)
        } else {
          let hex = String(scalar.value, radix: 16, uppercase: true)
          expected.append(contentsOf: "<U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex)>".unicodeScalars)
        }
      }
      #expect(Array(shown.unicodeScalars) == Array(expected), "seed \(seed): \(text.debugDescription) → \(shown.debugDescription)")
      if !text.unicodeScalars.contains(where: Self.acts) {
        #expect(Array(shown.utf8) == Array(text.utf8), "seed \(seed): changed text without controls")
      }
      #expect(InertText.holdsControls(text) == text.unicodeScalars.contains(where: Self.acts), "seed \(seed)")
      #expect(InertText.firstControl(in: text) == text.unicodeScalars.first(where: Self.acts), "seed \(seed)")
      #expect(
        InertText.firstControl(in: text, allowing: ["\n", "\t"]) == text.unicodeScalars.first { Self.acts($0) && $0 != "\n" && $0 != "\t" },
        "seed \(seed)")
    }
  }
}
