import ArgumentParser
import ConcordApp
import Foundation

/// `concord words SCOPE`: what a scope takes, as `help` in its window shows it.
struct WordsCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "words",
      abstract: "List a scope's words: what each does, an example, and the JSON action it makes.",
      discussion: """
        The same list `help` shows in a window. `concord send` and `concord attach` take either \
        the words or the JSON.

        \(BundledApp.current.scopeLine)

        Examples:
          concord words board
          concord words card:1
        """)
  }

  @Argument(help: "The scope, such as board or card:1.", completion: ScopeCompletion.kind)
  var scope: String

  func run() throws {
    let window = try ClientApp.current.window(for: scope)
    print(window.help.joined(separator: "\n"))
  }
}
