import ConcordWire
import Foundation

/// One command of a scope: its word, how to use it, and how it makes an action.
public struct WindowCommand<Action>: Sendable {
  /// The first word a person types for it (`add`).
  public let word: String
  /// How to use it, as help shows it (`add TITLE [to COLUMN]`).
  public let usage: String
  /// What it does, in a short sentence after the usage in help.
  public let helpText: String
  /// A line a person could type, shown in help with the action it makes as JSON.
  public let example: String?
  /// Makes the action from the words after the command's own; throws a ``CommandError`` that
  /// says what was expected.
  public let make: @Sendable (CommandWords) throws -> Action
  /// For a command that cannot be undone: what it will do, which a window asks a person to
  /// confirm first (nil for these words: go ahead).
  public let confirm: (@Sendable (CommandWords) -> String?)?

  /// ```swift
  /// WindowCommand("add", usage: "add N", help: "add N to the count", example: "add 5") { words in
  ///   .add(amount: try words.integer(0))
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - word: the command's first word.
  ///   - usage: how to use it; the word alone when nil.
  ///   - help: what it does, in a short sentence.
  ///   - example: a line a person could type, shown in help with its action's JSON.
  ///   - confirm: for a command that cannot be undone, what it will do (`delete message
  ///     3 for good`); a window asks before it sends it.
  ///   - make: the action from the words after the command's own.
  public init(
    _ word: String, usage: String? = nil, help: String, example: String? = nil,
    confirm: (@Sendable (CommandWords) -> String?)? = nil,
    make: @escaping @Sendable (CommandWords) throws -> Action
  ) {
    self.word = word
    self.usage = usage ?? word
    self.helpText = help
    self.example = example
    self.confirm = confirm
    self.make = make
  }

  /// What the command `text` starts with will do and cannot undo, or nil.
  static func confirmation(for text: String, with commands: [WindowCommand]) -> String? {
    let words = CommandWords(text)
    return words.all.first.flatMap { command(named: $0, in: commands) }?.confirm?(words.droppingFirst)
  }

  /// The command whose word `first` is, in any case.
  private static func command(named first: String, in commands: [WindowCommand]) -> WindowCommand? {
    commands.first { $0.word == first.lowercased() }
  }

  static func parse(
    _ text: String, with commands: [WindowCommand], otherwise: (@Sendable (String) throws -> Action)? = nil
  ) throws -> Action {
    let words = CommandWords(text)
    guard let first = words.all.first else { throw CommandError.seeTheList("type a command") }
    guard let command = command(named: first, in: commands) else {
      // Where commands take a prefix (`/edit` in a chat), a line with it is a command, mistyped
      // or not, never said; `//` escapes it.
      let prefixed = commands.contains { $0.word.hasPrefix("/") } && first.hasPrefix("/") && !first.hasPrefix("//")
      if let otherwise, !prefixed { return try otherwise(text.trimmingCharacters(in: .whitespaces)) }
      let suggestion = closest(to: first.lowercased(), among: commands.map(\.word)).map { "; did you mean `\($0)`?" } ?? ""
      throw CommandError.seeTheList("no command \"\(first)\"\(suggestion)")
    }
    do {
      return try command.make(words.droppingFirst)
    } catch let error as CommandError {
      throw CommandError("\(error.description) (usage: \(command.usage))")
    }
  }
}

/// The word of `words` closest to `typed` when it is a likely typo of it: at most one edit away
/// for short words, two for longer ones (a swap of two letters counts as one).
func closest(to typed: String, among words: [String]) -> String? {
  let limit = typed.count <= 4 ? 1 : 2
  let typedCharacters = Array(typed)
  // A word whose length is further off than the limit cannot be within it: a long pasted line
  // costs nothing.
  let scored = words.filter { abs($0.count - typedCharacters.count) <= limit }
    .map { ($0, editDistance(typedCharacters, Array($0))) }.filter { $0.1 <= limit }
  return scored.min { $0.1 < $1.1 }?.0
}

/// Optimal string alignment distance: insertions, deletions, substitutions and swaps of
/// neighbours.
func editDistance(_ a: [Character], _ b: [Character]) -> Int {
  guard !a.isEmpty else { return b.count }
  guard !b.isEmpty else { return a.count }
  var distance = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
  for i in 0...a.count { distance[i][0] = i }
  for j in 0...b.count { distance[0][j] = j }
  for i in 1...a.count {
    for j in 1...b.count {
      let cost = a[i - 1] == b[j - 1] ? 0 : 1
      distance[i][j] = min(distance[i - 1][j] + 1, distance[i][j - 1] + 1, distance[i - 1][j - 1] + cost)
      if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
        distance[i][j] = min(distance[i][j], distance[i - 2][j - 2] + 1)
      }
    }
  }
  return distance[a.count][b.count]
}
