import ConcordText
import PropertyRandom
import Testing

/// Text is fitted to a window by terminal cells, not by characters: a title in Japanese or with
/// an emoji takes the columns a terminal gives it, and is never cut inside a character.
///
/// The model is a table of characters with the cells a terminal that follows `wcwidth` (tmux,
/// xterm, VTE) gives them: each scalar by East Asian Width and emoji presentation, marks, joiners
/// and variation selectors none (checked by hand in tmux, not computed by the code under test),
/// from which the texts are built.
@Suite struct TextFitWidthProperties {
  static let characters: [(Character, Int)] = [
    ("a", 1), ("Z", 1), (" ", 1), ("-", 1), ("é", 1), ("e\u{301}", 1), ("ñ", 1), ("ß", 1), ("…", 1), ("—", 1),
    ("Ω", 1), ("я", 1), ("א", 1),
    ("日", 2), ("本", 2), ("語", 2), ("ア", 2), ("한", 2), ("Ａ", 2), ("。", 2),
    ("😀", 2), ("☕", 2), ("👍🏽", 4), ("👩\u{200D}👩\u{200D}👧", 6), ("🇯🇵", 2), ("1\u{FE0F}\u{20E3}", 1),
    ("❤\u{FE0F}", 1), ("\u{200B}", 0),
  ]

  static func cells(_ text: String) -> Int {
    text.reduce(0) { total, character in
      total + (characters.first { $0.0 == character }?.1 ?? (character == "…" ? 1 : -1_000))
    }
  }

  static func randomText(_ random: inout PropertyRandom) -> String {
    let length = random.int(0...30)
    var text = ""
    for _ in 0..<length {
      text.append(random.chance(15) ? " " : random.pick(characters).0)
    }
    return text
  }

  @Test func everyCharacterOfTheTableIsMeasuredAsTheStandardSays() {
    for (character, width) in Self.characters {
      #expect(DisplayWidth.of(character) == width, "\(character.unicodeScalars.map { String($0.value, radix: 16) })")
    }
  }

  @Test func padCutAndWrapCountCellsAndNeverSplitACharacter() {
    for seed in PropertyRandom.seeds(from: 0x7E47_0000, count: 30) {
      var random = PropertyRandom(seed: seed)
      for _ in 0..<100 {
        let text = Self.randomText(&random)
        let width = random.int(1...24)
        let padded = TextFit.pad(text, width)
        #expect(Self.cells(padded) == width, "seed \(seed): \(text) at \(width): \(padded)")
        let kept = padded.trimmingSuffix(" ")
        #expect(text.hasPrefix(kept) || kept.isEmpty, "seed \(seed): \(padded) is no start of \(text)")

        let cut = TextFit.cut(text, width)
        #expect(Self.cells(cut) <= width, "seed \(seed): \(cut)")
        if Self.cells(text) <= width {
          #expect(cut == text)
        } else {
          #expect(cut.hasSuffix("…") && text.hasPrefix(cut.dropLast()), "seed \(seed): \(text) cut to \(cut)")
          // Cut as late as it can be: one more character would not fit with the "…".
          let next = text.dropFirst(cut.count - 1).first.map { Self.cells(String($0)) } ?? 0
          #expect(Self.cells(String(cut.dropLast())) + next + 1 > width, "seed \(seed): \(text) cut early to \(cut)")
        }

        let lines = TextFit.wrap(text, max(2, width))
        for line in lines where line.count > 1 {
          #expect(Self.cells(line) <= max(2, width), "seed \(seed): \(line) in \(lines)")
        }
        #expect(lines.joined().filter { $0 != " " } == text.filter { $0 != " " }, "seed \(seed): \(text) wrapped as \(lines)")
      }
    }
  }
}

extension String {
  fileprivate func trimmingSuffix(_ character: Character) -> String {
    var text = self
    while text.last == character { text.removeLast() }
    return text
  }
}
