import ConcordJSON
import Foundation
import PropertyRandom
import Testing

/// `JSONValue(encoding:)` builds a value without writing text; it must be exactly what
/// Foundation's `JSONEncoder` (with the date rule, `JSONCoders.encoder()`) writes, read back, and
/// fail where it fails, at the same place. The model is `JSONEncoder` itself, its text parsed.
/// Values are compared by their canonical text's bytes: `String ==` would take an NFD text for
/// its NFC twin.
@Suite struct JSONValueEncoderProperties {
  enum Shape: Encodable {
    case plain
    case labelled(id: Int, title: String?)
    case unlabelled(Int8)
  }

  /// Writes through every kind of container Foundation offers, as a hand-written `encode` may.
  struct Custom: Encodable {
    var values: [Double]
    var name: String

    enum Keys: String, CodingKey { case inner, list, name, gap }
    enum Inner: String, CodingKey { case deep }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      var inner = container.nestedContainer(keyedBy: Inner.self, forKey: .inner)
      var deep = inner.nestedUnkeyedContainer(forKey: .deep)
      for value in values { try deep.encode(value) }
      var list = container.nestedUnkeyedContainer(forKey: .list)
      var pair = list.nestedContainer(keyedBy: Keys.self)
      try pair.encode(name, forKey: .name)
      try list.encodeNil()
      try container.encodeNil(forKey: .gap)
      try Base(name: name).encode(to: container.superEncoder())
    }
  }

  class Base: Encodable {
    let name: String
    init(name: String) { self.name = name }
  }

  struct Everything: Encodable {
    var int: Int64
    var small: Int8?
    var unsigned: UInt64
    var double: Double
    var float: Float
    var flag: Bool?
    var text: String
    var when: Date?
    var list: [Int]
    var nested: [[String]]?
    var table: [String: Int]?
    var byNumber: [Int: String]?
    var shape: Shape?
    var optionals: [Int?]
    var blob: Data?
    var amount: Decimal?
    var custom: Custom?
  }

  static let texts = [
    "", "\0", "a\0b", "\u{1}\u{8}\u{C}\u{1F}\u{7F}", "\u{E9}", "e\u{301}", "👩‍👩‍👧", "漢字かな", "\"\\/", "\u{2028}\u{FEFF}",
    "line\nbreak\r\ttab",
  ]
  static let doubles: [Double] = [
    0, -0.0, 0.1, 1.5, -2.5, 3, 1e300, 5e-324, 9_007_199_254_740_993, 9.3e18, 1e20, 0x1p63, -0x1p63,
    .greatestFiniteMagnitude, .nan, .infinity,
  ]
  static let floats: [Float] = [0, 0.1, 3, 1e38, .leastNonzeroMagnitude, 16_777_217, -0.0, .nan]
  static let integers: [Int64] = [0, 1, -1, .max, .min, 9_007_199_254_740_991, 9_007_199_254_740_993, -9_007_199_254_740_993]
  static let unsigned: [UInt64] = [0, UInt64(Int64.max), UInt64(Int64.max) + 1, .max]

  static func text(_ random: inout PropertyRandom) -> String {
    (0..<random.int(0...3)).map { _ in random.pick(texts) }.joined()
  }

  static func everything(_ random: inout PropertyRandom) -> Everything {
    // Mostly dates the format spells; now and then one past the year 9999, which neither can.
    let milliseconds = random.int(0...19) == 0 ? 300_000_000_000_000 : Int64(random.int(-62_000_000_000_000...253_000_000_000_000))
    return Everything(
      int: random.pick(integers), small: random.chance(50) ? Int8(random.int(-128...127)) : nil, unsigned: random.pick(unsigned),
      double: random.pick(doubles), float: random.pick(floats), flag: random.chance(50) ? random.chance(50) : nil,
      text: text(&random), when: random.chance(50) ? Date(timeIntervalSince1970: Double(milliseconds) / 1000) : nil,
      list: (0..<random.int(0...4)).map { _ in random.int(-5...5) },
      nested: random.chance(50) ? (0..<random.int(0...3)).map { _ in (0..<random.int(0...2)).map { _ in text(&random) } } : nil,
      table: random.chance(50) ? Dictionary((0..<random.int(0...4)).map { _ in (text(&random), random.int(0...9)) }) { $1 } : nil,
      byNumber: random.chance(50) ? Dictionary((0..<random.int(0...3)).map { _ in (random.int(-3...3), text(&random)) }) { $1 } : nil,
      shape: random.pick([nil, .plain, .labelled(id: random.int(0...9), title: random.chance(50) ? text(&random) : nil), .unlabelled(-8)]),
      optionals: (0..<random.int(0...3)).map { _ in random.chance(50) ? random.int(0...9) : nil },
      blob: random.chance(50) ? Data((0..<random.int(0...40)).map { _ in UInt8(random.int(0...255)) }) : nil,
      amount: random.chance(50) ? Decimal(string: random.pick(["0", "12.34", "-0.001", "123456789012345678901234567890"])) : nil,
      custom: random.chance(50) ? Custom(values: [random.pick(doubles)], name: text(&random)) : nil)
  }

  /// Where an encoding error is, which a person is told.
  static func summary(_ error: any Error) -> String {
    guard case let .invalidValue(_, context) = error as? EncodingError else { return "other: \(error)" }
    return "invalidValue at " + context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
  }

  @Test func encodingAValueGivesWhatJSONEncodersTextReadsBackAs() throws {
    let model = JSONCoders.encoder()
    var (agreed, agreedFailures) = (0, 0)
    for seed in PropertyRandom.seeds(from: 0xE4C0_0000, count: 40) {
      var random = PropertyRandom(seed: seed)
      for _ in 0..<50 {
        let value = Self.everything(&random)
        let expected = Result { try JSONValue(parsing: String(decoding: try model.encode(value), as: UTF8.self)) }
        let actual = Result { try JSONValue(encoding: value) }
        switch (expected, actual) {
        case let (.success(a), .success(b)):
          #expect(Array(a.jsonText.utf8) == Array(b.jsonText.utf8), "seed \(seed)\n\(a.jsonText)\n\(b.jsonText)")
          // The size counted without writing is the size written.
          #expect(b.jsonTextByteCount == b.jsonText.utf8.count)
          agreed += 1
        case let (.failure(a), .failure(b)):
          // Foundation leaves the keys of nested containers out of the path (`custom.0` for
          // `custom.inner.deep.0`); there the kind and both ends of the path must agree.
          let (x, y) = (Self.summary(a), Self.summary(b))
          let ends = { (summary: String) in [summary.split(separator: ".").first, summary.split(separator: ".").last] }
          #expect(x == y || (x.hasPrefix("invalidValue at custom.") && ends(x) == ends(y)), "seed \(seed): \(x) / \(y)")
          agreedFailures += 1
        default:
          Issue.record("seed \(seed): JSONEncoder \(expected), value encoder \(actual)")
        }
      }
    }
    #expect(agreed > 200 && agreedFailures > 200, "\(agreed) agreed, \(agreedFailures) refused alike")
  }

  /// A megabyte of text; a member that encodes nothing (an empty object, as Foundation has it)
  /// and a whole value that does (an error).
  @Test func largeTextsAndEmptyValuesAreEncodedAsJSONEncoderDoes() throws {
    struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }
    struct Holder: Encodable { var nothing = Nothing() }
    let model = JSONCoders.encoder()
    let long = String(repeating: "é\0👩‍👩‍👧", count: 50_000)
    let encoded = try JSONValue(encoding: long)
    #expect(Array(encoded.jsonText.utf8) == Array(try JSONValue(parsing: String(decoding: try model.encode(long), as: UTF8.self)).jsonText.utf8))
    #expect(encoded.jsonTextByteCount == encoded.jsonText.utf8.count)
    #expect(try JSONValue(encoding: Holder()) == JSONValue(parsing: String(decoding: try model.encode(Holder()), as: UTF8.self)))
    #expect(throws: EncodingError.self) { try model.encode(Nothing()) }
    #expect(throws: EncodingError.self) { try JSONValue(encoding: Nothing()) }
  }
}
