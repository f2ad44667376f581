import Foundation

/// A seeded source of random choices for property tests and the proof suites (SplitMix64). A failing case prints its
/// seed; the same seed makes the same case again.
///
/// To replay one case: `CONCORD_PROPERTY_SEED=<seed> swift test --filter <test>` runs that seed
/// alone (decimal, or hex with 0x). `CONCORD_PROPERTY_SCALE=10` runs ten times as many cases.
public struct PropertyRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) {
    state = seed
  }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }

  public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
  public mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
  public mutating func pick<Element>(_ choices: [Element]) -> Element { choices[int(0...choices.count - 1)] }

  /// The seed in `CONCORD_PROPERTY_SEED`, when one case is replayed: then the checks that a
  /// property's cases reach what it is about (so many refusals, …) are skipped.
  public static let replayed: UInt64? = ProcessInfo.processInfo.environment["CONCORD_PROPERTY_SEED"].flatMap { text in
    text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
  }

  /// How many times the usual number of cases to run: `CONCORD_PROPERTY_SCALE`, for a long run
  /// that looks harder (1 when unset).
  public static let scale = ProcessInfo.processInfo.environment["CONCORD_PROPERTY_SCALE"].flatMap { Int($0) }.map { max(1, $0) } ?? 1

  /// The seeds of a property's cases: `count` (times `scale`) of them from `first`, or only the
  /// replayed one.
  public static func seeds(from first: UInt64, count: Int) -> [UInt64] {
    replayed.map { [$0] } ?? (0..<UInt64(count * scale)).map { first &+ $0 }
  }
}
