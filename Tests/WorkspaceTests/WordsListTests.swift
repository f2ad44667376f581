import ConcordApp
import ConcordWire
import Testing

@testable import Workspace
@testable import WorkspaceWindows

/// What `help` in a window and `concord words` show: every command with what it does, and an
/// example whose JSON is an action the scope takes — laid out so that a command's words never
/// run into its explanation.
@Suite struct WordsListTests {
  @Test func everyExampleMakesTheActionItShowsAndTheScopeTakesIt() throws {
    var examples = 0
    for window in Workspace.client.scopes {
      let lines = window.help
      for (index, line) in lines.enumerated() where line.trimmingCharacters(in: .whitespaces).hasPrefix("e.g. ") {
        let example = String(line.trimmingCharacters(in: .whitespaces).dropFirst("e.g. ".count))
        let shown = try #require(lines.indices.contains(index + 1) ? lines[index + 1] : nil, "\(window.name): \(example)")
        let json = try JSONValue(parsing: shown.trimmingCharacters(in: .whitespaces))
        #expect(try window.parse(example) == json, "\(window.name): \(example)")
        #expect(throws: Never.self, "\(window.name): \(shown)") { try window.check?(json) }
        examples += 1
      }
    }
    #expect(examples >= 30)
  }

  @Test func aCommandsWordsAndItsExplanationNeverRunTogether() {
    for window in Workspace.client.scopes {
      for line in window.help where !line.hasPrefix(" ") {
        // A usage line either stands alone or leaves two spaces before the explanation.
        let usageOnly = !line.contains("  ")
        let separated = line.contains("  ") && line.range(of: "  ").map { !line[..<$0.lowerBound].isEmpty } == true
        #expect(usageOnly || separated, "\(window.name): \(line)")
      }
    }
    let board = Workspace.client.scope(named: "board")!.help
    let column = board.first { $0.hasPrefix("column add|rename|move|remove NAME …") }
    #expect(column == "column add|rename|move|remove NAME …", "the long usage has a line of its own: \(board)")
  }
}
