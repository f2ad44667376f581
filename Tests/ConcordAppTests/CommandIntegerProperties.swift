import PropertyRandom
import Testing

@testable import ConcordApp

/// A number typed in a window's command reaches the daemon as typed (integers travel exactly),
/// and a mistake says which mistake it is. The model reads the word as the README describes a
/// number: an optional sign and ASCII digits; within Int64 it is that number, past it "too
/// large", and anything else "must be a number". Range is decided on the digits as text.
@Suite struct CommandIntegerProperties {
  enum Reading: Hashable {
    case number(Int)
    case tooLarge
    case notANumber
  }

  static func model(_ word: String) -> Reading {
    let negative = word.first == "-"
    let digits = word.first == "-" || word.first == "+" ? word.dropFirst() : word[...]
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isWholeNumber }) else { return .notANumber }
    let significant = String(digits.drop { $0 == "0" })
    let limit = negative ? "9223372036854775808" : "9223372036854775807"
    // Same length compares as text; a shorter number is smaller.
    if significant.count > limit.count || (significant.count == limit.count && significant > limit) { return .tooLarge }
    return .number(Int(word)!)
  }

  static func reading(_ word: String) -> Reading {
    do {
      return .number(try CommandWords([word]).integer(0))
    } catch {
      let said = "\(error)"
      if said.contains("is too large") { return .tooLarge }
      if said.contains("must be a number") { return .notANumber }
      Issue.record("an unexpected mistake for \(word.debugDescription): \(said)")
      return .notANumber
    }
  }

  static func randomWord(_ random: inout PropertyRandom) -> String {
    let signs = ["", "", "-", "+", "--", "+-", "-+"]
    let edges = ["9223372036854775807", "9223372036854775808", "9223372036854775806", "9007199254740993", "0", "00"]
    var word = random.pick(signs)
    if random.chance(40) {
      word += String(repeating: "0", count: random.int(0...2)) + random.pick(edges)
    } else {
      for _ in 0..<random.int(0...24) { word += random.pick(["0", "1", "5", "9", "9", "٣", "x", ".", "e", " ", "\u{0}", "½"]) }
    }
    return word
  }

  @Test func aTypedNumberIsThatNumberOrSaysWhyNot() {
    var seen: [Reading: Int] = [:]
    for seed in PropertyRandom.seeds(from: 0xC0DE_1000, count: 3_000) {
      var random = PropertyRandom(seed: seed)
      let word = Self.randomWord(&random)
      let model = Self.model(word)
      #expect(Self.reading(word) == model, "seed \(seed): \(word.debugDescription)")
      switch model {
      case .number: seen[.number(0), default: 0] += 1
      default: seen[model, default: 0] += 1
      }
    }
    if PropertyRandom.replayed == nil { #expect(seen.values.count == 3 && seen.values.allSatisfy { $0 > 50 }, "\(seen)") }
  }
}
