import ConcordJSON
import Foundation
import PropertyRandom
import Synchronization
import Testing

/// `JSONValue(encoding:memo:)` takes the JSON of an element equal to one encoded before from the
/// memo. Through a run of edits — elements retitled with hostile texts, removed, put back under
/// the same id with other contents, moved between groups — each state must encode as Foundation's
/// `JSONEncoder` writes it, read back (the model), and an element left as it was is not encoded
/// again.
@Suite(.serialized) struct EncodeMemoProperties {
  /// How many times a `Card` was encoded, by every test of this suite (they run one at a time).
  static let encodes = Mutex(0)

  struct Card: MemoizedEncodable, Identifiable {
    var id: Int
    var title: String
    var done: Bool
    var due: Date?
    var tags: [String]

    func encode(to encoder: any Encoder) throws {
      EncodeMemoProperties.encodes.withLock { $0 += 1 }
      enum Key: String, CodingKey { case id, title, done, due, tags }
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(id, forKey: .id)
      try container.encode(title, forKey: .title)
      try container.encode(done, forKey: .done)
      try container.encodeIfPresent(due, forKey: .due)
      try container.encode(tags, forKey: .tags)
    }
  }

  /// A value with no id, filed by itself (a line of a feed).
  struct Line: MemoizedEncodable, Hashable {
    var at: Date?
    var text: String
    var memoKey: Line { self }
  }

  struct Board: Encodable {
    var cards: [Card]
    var columns: [String: [Card]]
    var pinned: Card?
    var feed: [Line] = []
  }

  static let texts = [
    "", "a", "Fix login", "\u{0}", "tab\there", "line\nbreak", "\"quoted\" \\", "\u{7}\u{1F}",
    "caf\u{E9}", "cafe\u{301}", "😀👍🏽", "日本語のカード", "\u{FEFF}bom", String(repeating: "x", count: 3_000),
  ]

  static func card(id: Int, _ random: inout PropertyRandom) -> Card {
    Card(
      id: id, title: random.pick(texts), done: random.chance(50),
      due: random.chance(50) ? Date(timeIntervalSince1970: Double(random.int(0...4_000_000_000_000)) / 1000) : nil,
      tags: (0..<random.int(0...2)).map { _ in random.pick(texts) })
  }

  /// The model's reading of `value`: JSONEncoder's text, parsed.
  static func modelJSON(_ value: some Encodable) throws -> JSONValue {
    try JSONValue(parsing: String(decoding: try JSONCoders.encoder().encode(value), as: UTF8.self))
  }

  /// The canonical text with every string in NFC: a card retitled from one spelling of a text
  /// to its canonically equivalent twin (NFC to NFD) is equal to the card kept, and keeps the
  /// spelling it was encoded with — as an unchanged scope keeps it (the daemon publishes a scope
  /// only when its state is not `==` the last one). Everything else must match byte for byte.
  static func comparable(_ json: JSONValue) -> [UInt8] {
    func normalized(_ value: JSONValue) -> JSONValue {
      switch value {
      case let .string(text): .string(text.precomposedStringWithCanonicalMapping)
      case let .array(elements): .array(elements.map(normalized))
      case let .object(members):
        .object(Dictionary(members.map { ($0.key.precomposedStringWithCanonicalMapping, normalized($0.value)) }) { $1 })
      default: value
      }
    }
    return Array(normalized(json).jsonText.utf8)
  }

  @Test func everyStateEncodesAsJSONEncoderWritesIt() throws {
    var checked = 0
    for seed in PropertyRandom.seeds(from: 0xE3C0_0000, count: 30) {
      var random = PropertyRandom(seed: seed)
      let memo = EncodeMemo()
      var board = Board(cards: (1...12).map { Self.card(id: $0, &random) }, columns: [:], pinned: nil)
      for _ in 0..<25 {
        switch random.int(0...5) {
        case 0 where !board.cards.isEmpty:
          board.cards[random.int(0...board.cards.count - 1)].title = random.pick(Self.texts)
        case 1 where !board.cards.isEmpty:
          board.cards[random.int(0...board.cards.count - 1)].done.toggle()
        case 2 where !board.cards.isEmpty:
          board.cards.remove(at: random.int(0...board.cards.count - 1))
        case 3:
          // Back under an id it may have had, with other contents.
          board.cards.append(Self.card(id: random.int(1...16), &random))
        case 4 where !board.cards.isEmpty:
          let card = board.cards[random.int(0...board.cards.count - 1)]
          board.columns[random.pick(["todo", "doing", "done"]), default: []].append(card)
        case 5 where random.chance(50):
          board.feed.append(Line(at: random.chance(50) ? Date(timeIntervalSince1970: Double(random.int(0...99))) : nil, text: random.pick(Self.texts)))
          if board.feed.count > 6 { board.feed.removeFirst() }
        default:
          board.pinned = random.chance(50) && !board.cards.isEmpty ? random.pick(board.cards) : Self.card(id: 99, &random)
        }
        let expected = try Self.modelJSON(board)
        let actual = try JSONValue(encoding: board, memo: memo)
        let same = Self.comparable(actual) == Self.comparable(expected)
        #expect(same, "seed \(seed)\n\(expected.jsonText.prefix(400))\n\(actual.jsonText.prefix(400))")
        #expect(actual.jsonTextByteCount == actual.jsonText.utf8.count)
        checked += 1
      }
    }
    #expect(checked == 750)
  }

  @Test func aCardLeftAsItWasIsNotEncodedAgain() throws {
    var random = PropertyRandom(seed: 7)
    let memo = EncodeMemo()
    var board = Board(cards: (1...50).map { Self.card(id: $0, &random) }, columns: [:], pinned: nil)
    board.cards[0].title = "first"
    _ = try JSONValue(encoding: board, memo: memo)

    Self.encodes.withLock { $0 = 0 }
    board.cards[7].title = "edited"
    let json = try JSONValue(encoding: board, memo: memo)
    #expect(Self.encodes.withLock { $0 } == 1, "encoded \(Self.encodes.withLock { $0 }) cards for one edit")
    let same = Self.comparable(json) == Self.comparable(try Self.modelJSON(board))
    #expect(same, "the board after one edit")

    // Without a memo every card is encoded, as before.
    Self.encodes.withLock { $0 = 0 }
    _ = try JSONValue(encoding: board)
    #expect(Self.encodes.withLock { $0 } == 50)
  }

  @Test func theMemoStartsAfreshPastItsCapacity() throws {
    var random = PropertyRandom(seed: 11)
    let memo = EncodeMemo(capacity: 20)
    for round in 0..<10 {
      let board = Board(cards: (1...15).map { Self.card(id: round * 15 + $0, &random) }, columns: [:], pinned: nil)
      let json = try JSONValue(encoding: board, memo: memo)
      let same = Self.comparable(json) == Self.comparable(try Self.modelJSON(board))
      #expect(same, "round \(round)")
      #expect(memo.count <= 20)
    }
  }

  /// An element that cannot be encoded (a number JSON has no text for) fails the encode where
  /// JSONEncoder fails it, with or without a memo, and nothing is kept for it: once it can be
  /// encoded, the memo gives what JSONEncoder writes.
  @Test func anElementThatCannotBeEncodedIsNotKept() throws {
    struct Reading: MemoizedEncodable, Identifiable {
      var id: Int
      var value: Double
    }
    let memo = EncodeMemo()
    var readings = [Reading(id: 1, value: 0.5), Reading(id: 2, value: .nan)]
    #expect(throws: EncodingError.self) { try Self.modelJSON(readings) }
    #expect(throws: EncodingError.self) { try JSONValue(encoding: readings, memo: memo) }
    #expect(memo.count == 1, "only the reading that could be encoded is kept")
    #expect(throws: EncodingError.self) { try JSONValue(encoding: readings, memo: memo) }

    readings[1].value = 2.5
    let json = try JSONValue(encoding: readings, memo: memo)
    #expect(Self.comparable(json) == Self.comparable(try Self.modelJSON(readings)))
    #expect(memo.count == 2)
  }
}
