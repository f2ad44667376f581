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
  /// `{"limit":{"_0":9223372036854775807}}`, which JSON carries as the double 2^63: the daemon
  /// could not decode it as an Int and turned it away as "not valid JSON". Any integer past
  /// 2^53 arrived rounded. The window now says the number is too large.
  @Test func numbersTheWireCannotCarryAreMistakesWhereTheyAreTyped() throws {
    // The fuzzer's input as it found it.
    #expect(throws: CommandError.self) { try action("column", "limit 9223372036854775807") }
    #expect(mistake("column", "limit 9223372036854775807")?.contains("too large") == true)
    // The same for every number a command reads, card numbers included, either way.
    #expect(mistake("column", "limit 9007199254740993") != nil)
    #expect(mistake("board", "due 9223372036854775807 today") != nil)
    #expect(mistake("board", "move #9007199254740993 done") != nil)
    #expect(mistake("board", "move 1 done -9007199254740993") != nil)
    #expect(mistake("board", "column add review 9007199254740993") != nil)
    #expect(mistake("chat", "delete 9223372036854775807") != nil)

    // The largest that fits reaches the daemon as typed.
    #expect(try decoded("column", "limit 9007199254740992", as: ColumnAction.self) == .limit(9_007_199_254_740_992))
    #expect(
      try decoded("board", "move #9007199254740992 done -9007199254740992", as: BoardAction.self)
        == .moveCard(id: 9_007_199_254_740_992, column: "done", position: -9_007_199_254_740_992))
  }
}
