import ConcordWire
import Testing

/// A peer says in its `hello` whether it is a window a person has open: the schema's `presence`,
/// true when absent, and nothing but true or false; and how often it wants its updates
/// (`update_interval_ms`, whose bounds `wire_contract_peer.py` checks from the schema).
@Suite struct HelloTests {
  @Test func aHelloIsAWindowUnlessItSaysOtherwise() throws {
    let window = try ClientMessage(line: Array(#"{"type":"hello","protocol":1}"#.utf8))
    #expect(window == .hello(protocolVersion: 1, client: nil, presence: true))
    let command = try ClientMessage(line: Array(#"{"type":"hello","protocol":1,"presence":false}"#.utf8))
    #expect(command == .hello(protocolVersion: 1, client: nil, presence: false))
    #expect(command.line == #"{"presence":false,"protocol":1,"type":"hello"}"# + "\n")
    #expect(try ClientMessage(line: Array(#"{"type":"hello","protocol":1,"presence":null}"#.utf8)) == window)
  }

  /// A window at the end of a slow link asks for a pace; one that does not asks for none, and
  /// its hello says nothing of it.
  @Test func aPaceIsWrittenOnlyWhenAsked() throws {
    let paced = ClientMessage.hello(protocolVersion: 1, client: nil, updateIntervalMilliseconds: 20)
    #expect(paced.line == #"{"protocol":1,"type":"hello","update_interval_ms":20}"# + "\n")
    #expect(try ClientMessage(line: Array(paced.line.dropLast().utf8)) == paced)
    #expect(!ClientMessage.hello(protocolVersion: 1, client: nil).line.contains("update_interval_ms"))
  }

  @Test func presenceIsTrueOrFalseAndNothingElse() {
    for bad in [#""no""#, "0", "1", "[]"] {
      #expect(throws: WireError.self, "presence \(bad)") {
        try ClientMessage(line: Array(#"{"type":"hello","protocol":1,"presence":\#(bad)}"#.utf8))
      }
    }
  }
}
