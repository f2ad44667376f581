import ConcordJSON
import PropertyRandom
import Testing

/// `SpelledText` is a text keyed by its bytes: two are equal exactly when their UTF-8 bytes are,
/// and a set of them holds as many as a set of the byte arrays. The model is `[UInt8]`.
@Suite struct SpelledTextProperties {
  /// Combining marks in two orders, NUL, a ZWJ sequence, and a long prefix that boot texts share
  /// (texts past the 15 bytes Swift keeps inline, differing only at the end).
  static let pieces = [
    "", "a", "\u{E9}", "e\u{301}", "\u{1E69}", "s\u{323}\u{307}", "s\u{307}\u{323}", "\0", "👩‍👩‍👧", "漢", "\u{FEFF}",
    #"{"counter":{"add":{"amount":"#, "1", "12",
  ]

  @Test func spelledTextsAreEqualExactlyWhenTheirBytesAre() {
    var canonicalButNotByBytes = 0
    for seed in PropertyRandom.seeds(from: 0x5E11_0000, count: 20) {
      var random = PropertyRandom(seed: seed)
      let texts = (0..<50).map { _ in (0..<random.int(0...3)).map { _ in random.pick(Self.pieces) }.joined() }
      for a in texts {
        for b in texts {
          let sameBytes = Array(a.utf8) == Array(b.utf8)
          #expect((SpelledText(a) == SpelledText(b)) == sameBytes, "seed \(seed)")
          if sameBytes { #expect(SpelledText(a).hashValue == SpelledText(b).hashValue) }
          if a == b, !sameBytes { canonicalButNotByBytes += 1 }
        }
      }
      #expect(Set(texts.map(SpelledText.init)).count == Set(texts.map { Array($0.utf8) }).count, "seed \(seed)")
    }
    // The cases the type is for: equal as Strings, different as bytes.
    #expect(canonicalButNotByBytes > 100)
  }
}
