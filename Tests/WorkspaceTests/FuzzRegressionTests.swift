import ConcordClient
import ConcordWire
import Testing
import Workspace

/// Inputs the fuzzers (Fuzz/, scripts/fuzz.sh) found, kept as tests.
@Suite struct FuzzRegressionTests {
  func mistake(_ scope: String, _ text: String) -> String? {
    do {
      _ = try action(scope, text)
      return nil
    } catch {
      return "\(error)"
    }
  }

  /// fuzz-words, crash-f528737403c59232b15781f0d288f2fc5331b87c (25 bytes, already minimal):
  /// `limit 9223372036854775807` typed in a column window became
  /// `{"limit":{"to":9223372036854775807}}`, which JSON then carried as the double 2^63: the
  /// daemon could not decode it as an Int. Integers now travel exactly (`JSONValue.integer`), so
  /// every `Int` a person types reaches the daemon as typed, and one past `Int` is a mistake.
  @Test func everyIntegerAPersonTypesReachesTheDaemonAsTyped() throws {
    // The fuzzer's input as it found it.
    #expect(try decoded("column", "limit 9223372036854775807", as: ColumnAction.self) == .limit(to: Int.max))
    #expect(try decoded("column", "limit 9007199254740993", as: ColumnAction.self) == .limit(to: 9_007_199_254_740_993))
    #expect(
      try decoded("board", "move #9007199254740993 done -9223372036854775808", as: BoardAction.self)
        == .moveCard(id: 9_007_199_254_740_993, column: "done", position: Int.min))
    // Past `Int`, either way, it is said where it is typed.
    #expect(mistake("column", "limit 9223372036854775808")?.contains("too large") == true)
    #expect(mistake("board", "move 1 done -9223372036854775809")?.contains("too large") == true)
    #expect(mistake("chat", "/delete 99999999999999999999") != nil)
  }
}
