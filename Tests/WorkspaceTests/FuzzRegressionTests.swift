import ConcordClient
import ConcordWire
import Testing
import Workspace

/// Inputs the fuzzers (Fuzz/, scripts/fuzz.sh) found, kept as tests.
@Suite struct FuzzRegressionTests {
  let app = Workspace.client

  func parse(_ scope: String, _ bytes: [UInt8]) throws -> JSONValue {
    try #require(app.scope(named: scope)).parse(String(decoding: bytes, as: UTF8.self))
  }

  func mistake(_ scope: String, _ text: String) -> String? {
    do {
      _ = try parse(scope, Array(text.utf8))
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
    #expect(throws: CommandError.self) { try parse("column", Array("limit 9223372036854775807".utf8)) }
    #expect(mistake("column", "limit 9223372036854775807")?.contains("too large") == true)
    // The same for every number a command reads, card numbers included, either way.
    #expect(mistake("column", "limit 9007199254740993") != nil)
    #expect(mistake("board", "due 9223372036854775807 today") != nil)
    #expect(mistake("board", "move #9007199254740993 done") != nil)
    #expect(mistake("board", "move 1 done -9007199254740993") != nil)
    #expect(mistake("board", "column add review 9007199254740993") != nil)
    #expect(mistake("chat", "delete 9223372036854775807") != nil)

    // The largest that fits reaches the daemon as typed.
    let action = try parse("column", Array("limit 9007199254740992".utf8))
    #expect(try action.decode(ColumnAction.self) == .limit(9_007_199_254_740_992))
    let card = try parse("board", Array("move #9007199254740992 done -9007199254740992".utf8))
    #expect(
      try card.decode(BoardAction.self)
        == .moveCard(id: 9_007_199_254_740_992, column: "done", position: -9_007_199_254_740_992))
  }
}
