import ConcordJSON
import Foundation
import PropertyRandom
import Testing

/// `JSONValue.decode` reads a value without writing it as text; it must read exactly what
/// Foundation's `JSONDecoder` (with the date rule, `JSONCoders.decoder()`) reads from the value's
/// text, and fail where it fails, with the same kind of error at the same place. The model is
/// `JSONDecoder` itself, run on `jsonText`.
@Suite struct JSONValueDecoderProperties {
  enum Shape: Codable, Equatable {
    case plain
    case labelled(id: Int, title: String?)
    case unlabelled(Int8)
  }

  struct Everything: Codable, Equatable {
    var int: Int
    var small: Int8?
    var unsigned: UInt16?
    var double: Double
    var flag: Bool?
    var text: String
    var when: Date?
    var list: [Int]
    var nested: [[String]]?
    var table: [String: Int]?
    var shape: Shape?
    var optionals: [Int?]?
  }

  static let good: JSONValue = [
    "int": 3, "small": -7, "unsigned": 65_535, "double": 1.5, "flag": true, "text": "é 👩‍👩‍👧",
    "when": "2026-12-01T10:30:00.5+01:00", "list": [1, 2, 3], "nested": [["a"], []], "table": ["x": 1],
    "shape": ["labelled": ["id": 4, "title": "t"]], "optionals": [1, .null, 3],
  ]

  /// A value near `good`: a member changed to another kind, a number at an edge, removed, or null.
  static func mutation(_ random: inout PropertyRandom) -> JSONValue {
    guard case var .object(members) = good else { return good }
    for _ in 0..<random.int(1...3) {
      let key = random.pick(Array(members.keys).sorted())
      let replacement: JSONValue? = random.pick([
        nil, .null, .bool(false), .integer(0), .integer(Int64.max), .integer(Int64.min), .integer(128), .integer(-129),
        .integer(65_536), .integer(-1), .number(2.0), .number(2.5), .number(9.3e18), .number(-0.0), .string("3"),
        .string("2026-02-30T00:00:00Z"), .string("2026-12-01T00:00:00Z"), .array([]), .array([.null]),
        .array([.integer(1), .string("a")]), .object([:]), .object(["plain": .object([:])]),
        .object(["unlabelled": .object(["_0": .integer(300)])]), .object(["unlabelled": .object(["_0": .integer(3)])]),
        .object(["labelled": .object(["id": .number(4.0)])]), .object(["plain": .object([:]), "labelled": .object([:])]),
        .object(["x": .integer(1), "y": .null]),
      ])
      members[key] = replacement
    }
    return .object(members)
  }

  /// The kind of a decoding error and where it is, which a person is told.
  static func summary(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "other" }
    func path(_ context: DecodingError.Context) -> String {
      context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
    switch error {
    case let .keyNotFound(key, context): return "keyNotFound \(key.stringValue) at \(path(context))"
    case let .typeMismatch(_, context): return "typeMismatch at \(path(context))"
    case let .valueNotFound(_, context): return "valueNotFound at \(path(context))"
    case let .dataCorrupted(context): return "dataCorrupted at \(path(context))"
    @unknown default: return "other"
    }
  }

  @Test func decodingAValueReadsWhatJSONDecoderReadsFromItsText() throws {
    let model = JSONCoders.decoder()
    var agreedFailures = 0
    var successes = 0
    for seed in PropertyRandom.seeds(from: 0xDEC0_0000, count: 40) {
      var random = PropertyRandom(seed: seed)
      for _ in 0..<50 {
        let value = Self.mutation(&random)
        let expected = Result { try model.decode(Everything.self, from: Data(value.jsonText.utf8)) }
        let actual = Result { try value.decode(Everything.self) }
        switch (expected, actual) {
        case let (.success(a), .success(b)):
          #expect(a == b, "seed \(seed): \(value.jsonText)")
          successes += 1
        case let (.failure(a), .failure(b)):
          // The same kind at the same place; but Foundation names no place for a number that
          // does not fit (the value decoder names the member), and which member of a table
          // fails first depends on the table's order.
          let (x, y) = (Self.summary(a), Self.summary(b))
          let agree = x == y || (x == "dataCorrupted at " && y.hasPrefix("dataCorrupted at "))
            || (x.hasPrefix("typeMismatch at table.") && y.hasPrefix("typeMismatch at table."))
          #expect(agree, "seed \(seed): \(value.jsonText): \(x) / \(y)")
          agreedFailures += 1
        default:
          Issue.record("seed \(seed): \(value.jsonText): JSONDecoder \(expected), value decoder \(actual)")
        }
      }
    }
    #expect(successes > 100 && agreedFailures > 500, "\(successes) read, \(agreedFailures) refused")
  }
}
