import ConcordWire
import Foundation
import PropertyRandom
import Testing

/// The daemon writes every `ack` and `update` line straight, not through the message's JSON
/// object. An ack is checked byte for byte against a writer made here from the wire schema's
/// rules alone — keys in byte order, a string's `"` and `\` escaped, `\n` `\r` `\t` as such,
/// every other control character as `\u00xx`, the rest as UTF-8 — for hostile client ids and the
/// integers at the edges; an update against the message's object written whole, and read back
/// by Foundation's parser.
@Suite struct WrittenLineProperties {
  static let pieces = [
    "a", "é", "e\u{301}", "漢", "👩‍👩‍👧", "\u{0}", "\u{1F}", "\u{7F}", "\"", "\\", "\n", "\r", "\t", "/", " ",
  ]
  static let integers: [Int64] = [
    .min, .min + 1, -1, 0, 1, 9_007_199_254_740_991, 9_007_199_254_740_992, 9_007_199_254_740_993, .max - 1, .max,
  ]

  @Test func anAckLineIsTheSchemasObjectByteForByte() {
    for seed in PropertyRandom.seeds(from: 0xAC_0000, count: 400) {
      var random = PropertyRandom(seed: seed)
      var client = ""
      for _ in 0..<random.int(0...12) { client += random.pick(Self.pieces) }
      let cseq = random.chance(50) ? random.pick(Self.integers) : Int64(random.int(0...1_000_000))
      let seq = random.chance(50) ? random.pick(Self.integers) : Int64(random.int(0...1_000_000))
      let message = ServerMessage.ack(client: client, cseq: cseq, seq: seq)
      let expected = Self.modelLine(client: client, cseq: cseq, seq: seq)
      #expect(Array(message.line.utf8) == expected, "seed \(seed)")
      #expect(Array(message.line.utf8) == Array((message.jsonValue.jsonText + "\n").utf8), "seed \(seed)")
    }
  }

  @Test func aMegabyteClientIdIsWrittenWhole() {
    let client = String(repeating: "漢\u{0}", count: 1 << 18)
    let line = ServerMessage.ack(client: client, cseq: 1, seq: 2).line
    #expect(Array(line.utf8) == Self.modelLine(client: client, cseq: 1, seq: 2))
  }

  @Test func anUpdateLineIsItsObjectWrittenWhole() throws {
    for seed in PropertyRandom.seeds(from: 0xAC_1000, count: 300) {
      var generator = RandomJSON(seed: seed)
      let old = generator.document()
      let new = generator.edit(old)
      var scope = ""
      for _ in 0..<generator.count(0...6) { scope += generator.random.pick(Self.pieces) }
      let seq = generator.chance(30) ? generator.random.pick(Self.integers) : Int64(generator.count(0...1_000))
      let change: ServerMessage.Change = generator.chance(50) ? .diff(StateDiff.between(old, new)) : .reset(new)
      let message = ServerMessage.update(scope: scope, seq: seq, change: change)
      let line = Array(message.line.utf8)
      #expect(line == Array((message.jsonValue.jsonText + "\n").utf8), "seed \(seed)")
      let read = try #require(
        try JSONSerialization.jsonObject(with: Data(line), options: [.fragmentsAllowed]) as? [String: Any], "seed \(seed)")
      #expect(read["type"] as? String == "update" && read["seq"] as? Int64 == seq, "seed \(seed)")
      #expect((read["scope"] as? String).map { Array($0.utf8) } == Array(scope.utf8), "seed \(seed)")
      #expect(Set(read.keys) == ["type", "seq", "scope", change.isDiff ? "diff" : "reset"], "seed \(seed)")
    }
  }

  /// The daemon's update between two states is the diff when the diff's text is shorter than
  /// the new state's, else the whole state, and nothing when the states are the same: checked
  /// by writing both texts out and comparing their lengths.
  @Test func anUpdateBetweenTwoStatesIsTheShorterOfTheDiffAndTheState() throws {
    var diffs = 0
    var resets = 0
    for seed in PropertyRandom.seeds(from: 0xAC_2000, count: 400) {
      var generator = RandomJSON(seed: seed)
      let old = generator.document()
      let new = generator.chance(10) ? old : generator.edit(old)
      let newBytes = new.jsonText.utf8.count
      let line = ServerMessage.updateLine(scope: "s", seq: 3, from: old, to: new, newBytes: newBytes)
      let diff = StateDiff.between(old, new)
      guard !diff.isEmpty else {
        #expect(line == nil, "seed \(seed)")
        continue
      }
      let change: ServerMessage.Change = diff.jsonText.utf8.count < newBytes ? .diff(diff) : .reset(new)
      if case .diff = change { diffs += 1 } else { resets += 1 }
      let expected = ServerMessage.update(scope: "s", seq: 3, change: change).line
      #expect(line.map { Array($0.utf8) } == Array(expected.utf8), "seed \(seed)")
    }
    if PropertyRandom.replayed == nil { #expect(diffs > 50 && resets > 50, "\(diffs) diffs, \(resets) resets") }
  }

  /// `{"client":…,"cseq":…,"seq":…,"type":"ack"}` and a newline, written from the schema.
  static func modelLine(client: String, cseq: Int64, seq: Int64) -> [UInt8] {
    var bytes = Array(#"{"client":""#.utf8)
    for byte in client.utf8 {
      switch byte {
      case 0x22: bytes += Array(#"\""#.utf8)
      case 0x5C: bytes += Array(#"\\"#.utf8)
      case 0x0A: bytes += Array(#"\n"#.utf8)
      case 0x0D: bytes += Array(#"\r"#.utf8)
      case 0x09: bytes += Array(#"\t"#.utf8)
      case 0x00..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        bytes += Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      default: bytes.append(byte)
      }
    }
    bytes += Array(#"","cseq":\#(cseq),"seq":\#(seq),"type":"ack"}"#.utf8)
    bytes.append(0x0A)
    return bytes
  }
}

extension ServerMessage.Change {
  fileprivate var isDiff: Bool {
    if case .diff = self { true } else { false }
  }
}
