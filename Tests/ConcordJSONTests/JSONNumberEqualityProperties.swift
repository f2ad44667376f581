import ConcordJSON
import Foundation
import PropertyRandom
import Testing

/// A JSON number is read as `.integer` when written in digits within Int64, and as `.number`
/// otherwise; the two are one number when they are the same number, as the README says
/// (`.integer(3) == .number(3)`). Equality and hashing must agree with that, or a `Set` or a
/// dictionary key of JSON holds one number twice. The model writes each value out in decimal
/// with C's printf (exact for a double) and compares the texts.
@Suite struct JSONNumberEqualityProperties {
  /// The value as decimal text: an integer's digits, an integral double's exact digits
  /// (`%.0f`), or, for any other double, its shortest round-trip form.
  static func modelText(_ value: JSONValue) -> String {
    switch value {
    case let .integer(integer): return String(integer)
    case let .number(number) where number.isFinite && number == number.rounded(.towardZero):
      let digits = String(format: "%.0f", number)
      return digits == "-0" ? "0" : digits
    case let .number(number): return "fraction \(number)"
    default: return "not a number"
    }
  }

  static func randomValue(_ random: inout PropertyRandom) -> JSONValue {
    let pivots: [Int64] = [0, 1, -1, 1 << 53, -(1 << 53), .max, .min, 1 << 62]
    let integer = random.pick(pivots) &+ Int64(random.int(-3...3))
    let double = Double(integer)
    switch random.int(0...7) {
    case 0: return .integer(integer)
    case 1: return .integer(Int64.random(in: .min ... .max, using: &random))
    case 2: return .number(double)
    case 3: return .number(random.chance(50) ? double.nextUp : double.nextDown)
    case 4: return .number(double + 0.5)
    case 5: return .number(random.pick([0x1p63, -0x1p63, -0.0, 0.0, 1e300, -1e300, 0.1]))
    case 6: return .number(Double(Int64.random(in: -1000...1000, using: &random)))
    default: return .integer(Int64.random(in: -1000...1000, using: &random))
    }
  }

  /// `value` written the other way: an integer as a double (rounded, past 2^53), a double as
  /// the integer it truncates to (when there is one).
  static func otherCase(of value: JSONValue) -> JSONValue {
    switch value {
    case let .integer(integer): .number(Double(integer))
    case let .number(number) where number.isFinite && abs(number) < 0x1p63: .integer(Int64(number))
    default: value
    }
  }

  @Test func numbersAreEqualAndHashAlikeExactlyWhenTheyAreTheSameNumber() {
    var equalPairs = 0
    for seed in PropertyRandom.seeds(from: 0x4E55_0000, count: 4_000) {
      var random = PropertyRandom(seed: seed)
      let a = Self.randomValue(&random)
      // Often the same value in the other case, where the two must meet.
      let b = random.chance(40) ? Self.otherCase(of: a) : Self.randomValue(&random)
      let same = Self.modelText(a) == Self.modelText(b)
      #expect((a == b) == same, "seed \(seed): \(a) and \(b)")
      #expect((b == a) == same, "seed \(seed): \(b) and \(a)")
      // Inside containers too: arrays and objects compare their members the same way.
      #expect((JSONValue.array([a]) == .array([b])) == same, "seed \(seed)")
      #expect((JSONValue.object(["n": a]) == .object(["n": b])) == same, "seed \(seed)")
      if same {
        equalPairs += 1
        #expect(a.hashValue == b.hashValue, "seed \(seed): \(a) and \(b) are equal but hash apart")
        #expect(Set([a, b]).count == 1, "seed \(seed)")
      }
    }
    // The cases reach what they are about: numbers equal across the two cases.
    if PropertyRandom.replayed == nil { #expect(equalPairs > 800, "\(equalPairs) equal pairs") }
  }
}
