import ConcordWire

/// A scope's commands as a person reads them, in `help` in a window and in `concord words`:
/// each command's usage, what it does, and an example with the action it makes as JSON.
///
/// ```text
/// move ID COLUMN      move a card to another column
///                       e.g. move 2 done
///                       {"moveCard":{"column":"done","id":2}}
/// ```
///
/// A usage too long for the column gets a line of its own, so a word and its explanation never
/// run together.
enum CommandHelp {
  /// The column the explanations start at, at most: longer usages go on their own line.
  static let widestUsage = 24

  /// - Parameter examples: with each command's example and its JSON; without, one line (or
  ///   two, for a long usage) a command, for a window too short for the whole list.
  static func lines<Action: Encodable>(for commands: [WindowCommand<Action>], examples: Bool = true) -> [String] {
    let column = min(commands.map(\.usage.count).max() ?? 0, widestUsage) + 2
    var lines: [String] = []
    for command in commands {
      if command.usage.count + 2 <= column {
        lines.append(command.usage + String(repeating: " ", count: column - command.usage.count) + command.helpText)
      } else {
        lines.append(command.usage)
        lines.append(String(repeating: " ", count: column) + command.helpText)
      }
      guard examples, let example = command.example else { continue }
      let indent = String(repeating: " ", count: column + 2)
      lines.append(indent + "e.g. " + example)
      // The example is the command's own: it must make an action, or its help says so.
      if let action = try? WindowCommand.parse(example, with: [command]), let json = try? JSONValue(encoding: action) {
        lines.append(indent + json.jsonText)
      }
    }
    return lines
  }
}
