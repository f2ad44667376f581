import ConcordWire
import Foundation

/// One command of a scope: its word, how to use it, and how it makes an action.
public struct WindowCommand<Action>: Sendable {
  public let word: String
  public let usage: String
  public let helpText: String
  /// A line a person could type, shown in help with the action it makes as JSON.
  public let example: String?
  public let make: @Sendable (CommandWords) throws -> Action

  public init(
    _ word: String, usage: String? = nil, help: String, example: String? = nil,
    make: @escaping @Sendable (CommandWords) throws -> Action
  ) {
    self.word = word
    self.usage = usage ?? word
    self.helpText = help
    self.example = example
    self.make = make
  }

  static func parse(
    _ text: String, with commands: [WindowCommand], otherwise: (@Sendable (String) throws -> Action)? = nil
  ) throws -> Action {
    let words = CommandWords(text)
    guard let first = words.all.first else { throw CommandError("type a command; `help` lists them") }
    guard let command = commands.first(where: { $0.word == first.lowercased() }) else {
      if let otherwise { return try otherwise(text.trimmingCharacters(in: .whitespaces)) }
      throw CommandError("no command \"\(first)\"; `help` lists them")
    }
    do {
      return try command.make(words.droppingFirst)
    } catch let error as CommandError {
      throw CommandError("\(error.description) (usage: \(command.usage))")
    }
  }
}
