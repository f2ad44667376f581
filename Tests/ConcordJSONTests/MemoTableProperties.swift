import ConcordJSON
import PropertyRandom
import Testing

/// The memo table against its promise, restated as a model: a list of what was kept, searched
/// from the start, that forgets everything when a new key arrives at a full table. Keys and
/// inputs are hostile texts — NFC and NFD spellings of one word, emoji, NUL, empty — so the
/// table and the model must agree on what "the same key" and "the same input" are: Swift's
/// `==`, canonical equivalence, which the table's doc says its users must know.
@Suite struct MemoTableProperties {
  struct Model {
    var kept: [(key: String, input: String, output: Int)] = []
    let capacity: Int

    mutating func output(for key: String, input: String, make: () -> Int) -> Int {
      if let index = kept.firstIndex(where: { $0.key == key }) {
        if kept[index].input == input { return kept[index].output }
        kept[index] = (key, input, make())
        return kept[index].output
      }
      if kept.count >= capacity { kept = [] }
      kept.append((key, input, make()))
      return kept.last!.output
    }
  }

  static let texts = ["é", "e\u{301}", "", "\u{0}", "🧑‍🚀", "漢字", "a\u{1B}[31m", "card"]

  @Test func theTableKeepsAndForgetsAsItsModelDoes() {
    var made = 0
    var reused = 0
    for seed in PropertyRandom.seeds(from: 0x3E30_0000, count: 300) {
      var random = PropertyRandom(seed: seed)
      let capacity = random.int(1...5)
      let table = MemoTable<String, String, Int>(capacity: capacity)
      var model = Model(capacity: capacity)
      var next = 0
      for step in 0..<40 {
        let key = random.pick(Self.texts)
        let input = random.pick(Array(Self.texts.prefix(3)))
        var tableMade = false
        var modelMade = false
        next += 1
        let fromTable = table.output(for: key, input: input) {
          tableMade = true
          return next
        }
        let fromModel = model.output(for: key, input: input) {
          modelMade = true
          return next
        }
        #expect(fromTable == fromModel && tableMade == modelMade, "seed \(seed), step \(step): \(key.debugDescription) \(input.debugDescription)")
        #expect(table.count == model.kept.count, "seed \(seed), step \(step)")
        if tableMade { made += 1 } else { reused += 1 }
      }
    }
    // Both paths were taken often.
    if PropertyRandom.replayed == nil { #expect(made > 2_000 && reused > 2_000, "\(made) made, \(reused) reused") }
  }

  /// NFC and NFD spellings are one key and one input to the table, as to Swift: the output made
  /// for "é" is the one given for "e\u{301}" too. A memo of bytes must compare bytes.
  @Test func canonicallyEquivalentTextsShareAnEntry() {
    let table = MemoTable<String, String, [UInt8]>(capacity: 4)
    let nfc = table.output(for: "é", input: "é") { Array("é".utf8) }
    let nfd = table.output(for: "e\u{301}", input: "e\u{301}") { Array("e\u{301}".utf8) }
    #expect(nfc == nfd && table.count == 1)
  }
}
