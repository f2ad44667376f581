import ConcordWire
import Testing

/// A peer says in its `hello` whether it is a window a person has open: the schema's `presence`,
/// true when absent, and nothing but true or false.
@Suite struct HelloTests {
  @Test func aHelloIsAWindowUnlessItSaysOtherwise() throws {
    let window = try ClientMessage(line: Array(#"{"type":"hello","protocol":1}"#.utf8))
    #expect(window == .hello(protocolVersion: 1, client: nil, presence: true))
    let command = try ClientMessage(line: Array(#"{"type":"hello","protocol":1,"presence":false}"#.utf8))
    #expect(command == .hello(protocolVersion: 1, client: nil, presence: false))
    #expect(command.line == #"{"presence":false,"protocol":1,"type":"hello"}"# + "\n")
    #expect(try ClientMessage(line: Array(#"{"type":"hello","protocol":1,"presence":null}"#.utf8)) == window)
  }

  @Test func presenceIsTrueOrFalseAndNothingElse() {
    for bad in [#""no""#, "0", "1", "[]"] {
      #expect(throws: WireError.self, "presence \(bad)") {
        try ClientMessage(line: Array(#"{"type":"hello","protocol":1,"presence":\#(bad)}"#.utf8))
      }
    }
  }
}
