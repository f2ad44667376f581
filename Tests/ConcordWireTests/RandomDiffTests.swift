import ConcordWire
import Foundation
import Testing

@Suite struct RandomDiffTests {
  /// Each pair has its own seed, printed when it fails: `RandomJSON(seed:)` with that seed
  /// makes the same pair again.
  static let firstSeed: UInt64 = 0xC0DE_0000

  /// JSONEncoder as a peer would set it up for the wire: the same bytes as `jsonText` (Foundation
  /// writes `/` as `\/` unless told not to).
  static let slashesUnescaped = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    return encoder
  }()

  @Test func theDiffOfAnyTwoDocumentsTurnsOneIntoTheOther() throws {
    var keyedMoves = 0
    for offset in 0..<2_000 {
      let seed = Self.firstSeed + UInt64(offset)
      var generator = RandomJSON(seed: seed)
      let old = generator.document()
      // Mostly an edit of `old`, as after an action; sometimes an unrelated document or `old`.
      let new = generator.chance(10) ? generator.document() : generator.chance(5) ? old : generator.edit(old)
      let context: Comment = "seed \(seed):\n  old \(old.jsonText)\n  new \(new.jsonText)"

      let diff = StateDiff.between(old, new)
      #expect(diff.isEmpty == (old == new), context)
      do {
        let applied = try diff.apply(to: old)
        #expect(applied == new, "\(context)\n  diff \(diff.jsonText)\n  gave \(applied.jsonText)")
      } catch {
        Issue.record("\(context)\n  diff \(diff.jsonText)\n  \(error)")
      }

      // As a window receives it: encoded, sent, decoded.
      let data = try JSONEncoder().encode(diff)
      #expect(try Self.slashesUnescaped.encode(diff).count == diff.encodedSize, context)
      let received = try JSONDecoder().decode(StateDiff.self, from: data)
      #expect(received == diff, context)
      #expect(try received.apply(to: old) == new, context)
      #expect(StateDiff.between(new, new).isEmpty, context)

      keyedMoves += diff.operations.count { if case .move = $0 { true } else { false } }
    }
    // The generator does reach keyed arrays whose order changed.
    #expect(keyedMoves > 100)
  }

  @Test func textRoundTripsForRandomDocuments() throws {
    for offset in 0..<500 {
      let seed = Self.firstSeed + 0x1_0000 + UInt64(offset)
      var generator = RandomJSON(seed: seed)
      let document = generator.document()
      #expect(try JSONValue(parsing: document.jsonText) == document, "seed \(seed): \(document.jsonText)")
      #expect(try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(document)) == document, "seed \(seed)")
    }
  }
}
