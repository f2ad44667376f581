import ConcordWire
import PropertyRandom
import Testing

/// A reason or message cut to the limit (`WireLimits.bounded`) against what it promises, checked
/// on text that is easy to cut wrong — emoji families, flags, combining accents, CJK:
/// untouched when it fits; otherwise at most the limit in bytes, ending with " …", and before
/// that the longest run of whole characters of the original that leaves room for it.
@Suite struct BoundedTextProperties {
  static let pieces = ["a", "é", "e\u{301}", "漢", "👩‍👩‍👧", "🇯🇵", "\u{0}", " ", "\n"]

  @Test func cutTextIsAWholeCharacterPrefixWithinTheLimit() {
    let limit = WireLimits.maximumReasonBytes
    let ellipsis = " …"
    var cut = 0
    for seed in PropertyRandom.seeds(from: 0xB0DE_0000, count: 200) {
      var random = PropertyRandom(seed: seed)
      var text = ""
      let bytes = limit + random.int(-100...300)
      while text.utf8.count < bytes { text += random.pick(Self.pieces) }
      let bounded = WireLimits.bounded(text)
      guard text.utf8.count > limit else {
        #expect(bounded == text, "seed \(seed)")
        continue
      }
      cut += 1
      #expect(bounded.utf8.count <= limit, "seed \(seed)")
      #expect(bounded.hasSuffix(ellipsis), "seed \(seed)")
      let kept = Array(bounded.dropLast(ellipsis.count))
      let original = Array(text)
      #expect(Array(original.prefix(kept.count)) == kept, "seed \(seed): not a prefix of whole characters")
      // The longest such prefix: one more character would not leave room for the ellipsis.
      let next = String(original[kept.count])
      #expect(String(kept).utf8.count + next.utf8.count + ellipsis.utf8.count > limit, "seed \(seed): cut short")
    }
    if PropertyRandom.replayed == nil { #expect(cut > 50) }
  }
}
