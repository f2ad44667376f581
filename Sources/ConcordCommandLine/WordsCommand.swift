import ArgumentParser
import ConcordApp
import ConcordDaemonCommand
import Foundation

/// `NAME words SCOPE`: what a scope takes, as `help` in its window shows it.
struct WordsCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    let examples = HelpExamples.current
    let name = examples.program
    return CommandConfiguration(
      commandName: "words",
      abstract: "List a scope's words: what each does, an example, and the JSON action it makes.",
      discussion: """
        The same list `help` shows in a window. `\(name) send` and `\(name) attach` take either \
        the words or the JSON.

        \(examples.app.scopeLine)

        Examples:
          \(name) words \(examples.first)
          \(name) words \(examples.second)
        """)
  }

  @Argument(help: ArgumentHelp("The scope, such as \(HelpExamples.current.first)."), completion: ScopeCompletion.kind)
  var scope: String

  func run() throws {
    let window = try ProgramApp.current.window(for: scope)
    print(window.help.joined(separator: "\n"))
  }
}
