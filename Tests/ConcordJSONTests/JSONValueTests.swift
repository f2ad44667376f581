import ConcordJSON
import Foundation
import Testing

@Suite struct JSONValueTests {
  struct Board: Codable, Equatable {
    struct Card: Codable, Equatable {
      var id: Int
      var title: String
      var tags: [String]
      var due: String?
      var estimate: Double?
    }
    var name: String
    var version: Int
    var cards: [Card]
    var archived: [Card]?
    var owner: String?
  }

  let board = Board(
    name: "Launch \"v2\" ✓",
    version: 12,
    cards: [
      .init(id: 1, title: "Write the diff", tags: ["wire", "json"], due: "2025-05-01", estimate: 2.5),
      .init(id: -2, title: "Line\nbreak\tand \\ slash /", tags: [], due: nil, estimate: nil),
    ],
    archived: [],
    owner: nil
  )

  let sample: JSONValue = [
    "null": .null, "true": true, "false": false, "int": 42, "negative": -7, "fraction": 0.1,
    "small": 1e-7, "large": 1e300, "string": "é 👩‍👩‍👧 \u{01} \"q\"", "empty": "",
    "array": [1, "two", [3], [:], []], "object": ["nested": ["deeper": [true]]],
  ]

  @Test func codableEncodesPlainJSON() throws {
    let data = try JSONEncoder().encode(JSONValue.object(["a": .number(1)]))
    #expect(String(decoding: data, as: UTF8.self) == #"{"a":1}"#)
    let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"a":[1,2.5,"x",true,null]}"#.utf8))
    #expect(decoded == .object(["a": .array([.number(1), .number(2.5), .string("x"), .bool(true), .null])]))
  }

  @Test func roundTripsThroughCodable() throws {
    let data = try JSONEncoder().encode(sample)
    #expect(try JSONDecoder().decode(JSONValue.self, from: data) == sample)
    // Inside another Codable value, too: a message field holding a state.
    struct Envelope: Codable, Equatable { var seq: Int; var state: JSONValue }
    let envelope = Envelope(seq: 3, state: sample)
    #expect(try JSONDecoder().decode(Envelope.self, from: JSONEncoder().encode(envelope)) == envelope)
  }

  @Test func roundTripsThroughText() throws {
    #expect(try JSONValue(parsing: sample.jsonText) == sample)
    for scalar in [JSONValue.null, true, 0, -1.5, "x", [], [:]] {
      #expect(try JSONValue(parsing: scalar.jsonText) == scalar)
    }
  }

  @Test func textIsCompactSortedAndEscaped() {
    let value: JSONValue = ["b": [1, .null, 2.5], "a": "q\"\\\n\u{01}/é", "c": ["z": false, "y": 1e18]]
    #expect(value.jsonText == #"{"a":"q\"\\\n\u0001/é","b":[1,null,2.5],"c":{"y":1000000000000000000,"z":false}}"#)
    #expect(JSONValue.number(3).jsonText == "3")
    #expect(JSONValue.number(-0.0).jsonText == "0")
    #expect(JSONValue.number(1e300).jsonText == "1e+300")
    #expect(JSONValue.number(0x1p63).jsonText == "9.223372036854776e+18")  // past Int64: no integer form
    // JSON has no infinity or NaN; the text stays valid JSON.
    #expect(JSONValue.array([.number(.infinity), .number(.nan)]).jsonText == "[null,null]")
  }

  @Test func textIsTheSameWhateverTheInsertionOrder() {
    var forward: [String: JSONValue] = [:]
    var backward: [String: JSONValue] = [:]
    let keys = (0..<50).map { "key\($0)" }
    for key in keys { forward[key] = .string(key) }
    for key in keys.reversed() { backward[key] = .string(key) }
    #expect(JSONValue.object(forward).jsonText == JSONValue.object(backward).jsonText)
  }

  @Test func parsingRejectsInvalidJSON() {
    let texts = [
      "", "{", "[,]", "[1,]", "{\"a\":1,}", "{'a':1}", "tru", "{\"a\" 1}", "[1] [2]", "NaN", "[1e999]",
      "\"\u{01}\"", "01", "1.", "-", ".5", "\"\\x\"", "\"\\ud800\"", "\"\\udc00\"", "\"abc", "[1 2]", "{1:2}",
    ]
    for text in texts {
      #expect(throws: (any Error).self, "\(text)") { try JSONValue(parsing: text) }
    }
    #expect(throws: JSONParser.Failure.self) { try JSONParser.parse([0x22, 0xFF, 0xFE, 0x22]) }  // not UTF-8
  }

  @Test func parsingSaysWhereTheTextWentWrong() {
    #expect(throws: JSONParser.Failure(reason: "expected , or ]", offset: 3)) { try JSONValue(parsing: "[1 2]") }
  }

  @Test func parsingRefusesNestingDeeperThanTheLimitInsteadOfExhaustingTheStack() throws {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(throws: JSONParser.Failure.self) { try JSONValue(parsing: deep) }
    let allowed = JSONParser.maximumDepth
    let fits = String(repeating: "[", count: allowed) + String(repeating: "]", count: allowed)
    _ = try JSONValue(parsing: fits)
  }

  @Test func parsingReadsEscapesAndSurrogatePairs() throws {
    #expect(try JSONValue(parsing: #""a\nb\t\"\\\/\u00e9\ud83d\ude00""#) == .string("a\nb\t\"\\/é😀"))
    #expect(try JSONValue(parsing: #"["é😀 plain", "x\u0041y"]"#) == ["é😀 plain", "xAy"])
  }

  @Test func parsingReadsNumbersAsJSONDefinesThem() throws {
    #expect(try JSONValue(parsing: "[0, -0, 12, -7, 1.5, 2e3, 1E-2, 123456789012345]")
      == [0, 0, 12, -7, 1.5, 2000, 0.01, 123456789012345])
  }

  /// Integers are read from their digits, never through a double: 2^53+1 is not 2^53, and every
  /// Int64 is itself. The model is Swift's own `Int64(String)`, which reads digits exactly.
  @Test func integersAreExactAcrossTheWholeInt64Range() throws {
    var random = SystemRandomNumberGenerator()
    var samples: [Int64] = [
      .min, .min + 1, -1, 0, 1, .max, .max - 1, 1 << 53, (1 << 53) + 1, (1 << 53) - 1, -(1 << 53) - 1,
    ]
    for _ in 0..<2_000 { samples.append(Int64.random(in: .min ... .max, using: &random)) }
    for sample in samples {
      let parsed = try JSONValue(parsing: String(sample))
      #expect(parsed.int64 == Int64(String(sample)), "\(sample)")
      #expect(parsed.jsonText == String(sample))
      #expect(try JSONValue(parsing: "[\(sample)]") != [.integer(sample == .max ? sample - 1 : sample + 1)])
    }
    // Written otherwise, a number is not an integer, whatever its value.
    for text in ["1.0", "1e3", "1E2", "-0.0", "9223372036854775808", "-9223372036854775809"] {
      #expect(try JSONValue(parsing: text).int64 == nil, "\(text)")
    }
  }

  @Test func anObjectThatNamesAMemberTwiceIsRefused() {
    #expect(throws: JSONParser.Failure.self) { try JSONValue(parsing: #"{"user":"mallory","user":"alice"}"#) }
    #expect(throws: JSONParser.Failure.self) { try JSONValue(parsing: #"{"a":{"b":1,"b":1}}"#) }
  }

  @Test func parsingKeepsBooleansAndNumbersApart() throws {
    #expect(try JSONValue(parsing: "[true,1,0,false]") == [true, 1, 0, false])
    #expect(try JSONValue(parsing: Substring("  {\"n\" : -12.5e2 }  ")) == ["n": -1250])
  }

  @Test func encodesAndDecodesANestedStruct() throws {
    let json = try JSONValue(encoding: board)
    guard case let .object(object) = json, case let .array(cards) = object["cards"] else {
      Issue.record("expected an object with a cards array, got \(json.jsonText)")
      return
    }
    #expect(object["version"] == 12)
    #expect(object["owner"] == nil)  // JSONEncoder leaves nil optionals out
    #expect(cards.first == ["id": 1, "title": "Write the diff", "tags": ["wire", "json"], "due": "2025-05-01", "estimate": 2.5])
    #expect(try json.decode(Board.self) == board)
    // Through every representation and back.
    let reparsed = try JSONValue(parsing: json.jsonText)
    let recoded = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(reparsed))
    #expect(try recoded.decode(Board.self) == board)
  }

  @Test func integersRoundTrip() throws {
    #expect(try JSONValue.number(3).decode(Int.self) == 3)
    #expect(try JSONValue(encoding: 3).decode(Int.self) == 3)
    #expect(try JSONValue(encoding: -40).decode(Int32.self) == -40)
    #expect(try JSONValue.number(0x1p53).decode(Int.self) == 1 << 53)
    #expect(try JSONValue(encoding: [1, 2, 3]).decode([Int].self) == [1, 2, 3])
    #expect(throws: (any Error).self) { try JSONValue.number(3.5).decode(Int.self) }
    #expect(throws: (any Error).self) { try JSONValue.string("3").decode(Int.self) }
  }

  @Test func scalarsEncodeAtTheTopLevel() throws {
    #expect(try JSONValue(encoding: "x") == "x")
    #expect(try JSONValue(encoding: Optional<Int>.none) == .null)
    #expect(try JSONValue.bool(true).decode(Bool.self))
    #expect(try JSONValue.null.decode(String?.self) == nil)
  }
}
