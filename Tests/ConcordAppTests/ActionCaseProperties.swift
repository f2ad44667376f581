import ConcordApp
import ConcordWire
import Foundation
import PropertyRandom
import Testing

/// `ActionCase.read` finds an action's case: the schemas say an action is an object with one
/// member naming it, and that members the app does not know are ignored. It reads the JSON of a
/// `JSONValue` straight (a boot's replay, a window's send) and goes through `allKeys` otherwise;
/// both must decide as the model does, for objects of zero to three members, known and unknown,
/// canonically equivalent names, NUL, and values that are not objects.
@Suite struct ActionCaseProperties {
  enum Pick: Decodable, Equatable {
    case plain, café

    private enum Case: String, CodingKey, CaseIterable {
      case plain, café
    }

    init(from decoder: any Decoder) throws {
      let (_, key) = try ActionCase.read(Case.self, from: decoder)
      self = key == .plain ? .plain : .café
    }
  }

  /// The model, from the schemas' words: the members whose names are cases (Swift's `String`
  /// equality, as a `CodingKey`'s raw value compares); exactly one, or the action is refused.
  static func model(_ value: JSONValue) -> Pick? {
    guard case let .object(members) = value else { return nil }
    let named = members.keys.compactMap { name -> Pick? in
      if name == "plain" { return .plain }
      if name == "café" { return .café }
      return nil
    }
    return named.count == 1 ? named[0] : nil
  }

  static let names = ["plain", "café", "cafe\u{301}", "Plain", "plain\0", "", "漢", "👩‍👩‍👧", "extra", "caf"]
  static let members: [JSONValue] = [[:], .null, 1, "x", [1], ["amount": 5]]

  @Test func theCaseIsFoundAsTheSchemasSayWhicheverWayTheJSONIsRead() throws {
    var (found, refused) = (0, 0)
    for seed in PropertyRandom.seeds(from: 0xAC5E_0000, count: 400) {
      var random = PropertyRandom(seed: seed)
      let value: JSONValue
      if random.chance(10) {
        value = random.pick([.null, 3, "plain", ["plain"], .array([])])
      } else {
        var object: [String: JSONValue] = [:]
        for _ in 0..<random.int(0...3) { object[random.pick(Self.names)] = random.pick(Self.members) }
        value = .object(object)
      }
      let expected = Self.model(value)
      let straight = try? value.decode(Pick.self)
      let throughText = try? JSONDecoder().decode(Pick.self, from: Data(value.jsonText.utf8))
      #expect(straight == expected, "seed \(seed): \(value.jsonText) read straight gives \(String(describing: straight))")
      #expect(throughText == expected, "seed \(seed): \(value.jsonText) read as text gives \(String(describing: throughText))")
      if expected == nil { refused += 1 } else { found += 1 }
    }
    #expect(found > 100 && refused > 100, "\(found) found, \(refused) refused")
  }
}
