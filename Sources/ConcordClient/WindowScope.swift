import Concord
import ConcordWire
import Foundation

/// How a window shows one of the app's scopes and reads what a person types there: the app's
/// renderer, its command parser, and its child reducer for showing actions before the daemon
/// has them (offline, or in flight).
///
/// ```swift
/// WindowScope.scope(
///   "counter", reducer: counterReducer, environment: (),
///   render: { count, _ in ["Count: \(count)"] },
///   commands: [
///     WindowCommand("inc", help: "add one") { _ in .increment },
///     WindowCommand("add", usage: "add N", help: "add N") { words in .add(amount: try words.integer(0)) },
///   ])
/// ```
public struct WindowScope: Sendable {
  public let name: String
  /// The state as lines of at most `width` columns; ANSI colour is allowed.
  public let render: @Sendable (JSONValue, _ width: Int) -> [String]
  /// An action from words (`add 5`); throws a ``CommandError`` saying what was expected.
  public let parse: @Sendable (String) throws -> JSONValue
  /// One line per command, for `help`.
  public let help: [String]
  /// The state after the action, by the scope's own reducer; nil when it refuses or cannot tell.
  public let applyLocally: (@Sendable (JSONValue, JSONValue) -> JSONValue?)?
  /// True when the last lines matter most (a conversation): a window too short for all of
  /// them shows the end rather than the beginning.
  public let showsEnd: Bool

  public init(
    name: String, render: @escaping @Sendable (JSONValue, Int) -> [String],
    parse: @escaping @Sendable (String) throws -> JSONValue, help: [String],
    applyLocally: (@Sendable (JSONValue, JSONValue) -> JSONValue?)?, showsEnd: Bool = false
  ) {
    self.showsEnd = showsEnd
    self.name = name
    self.render = render
    self.parse = parse
    self.help = help
    self.applyLocally = applyLocally
  }

  /// A scope with a typed state, actions, reducer, renderer and commands.
  ///
  /// - Parameter otherwise: what a line that starts with none of the commands' words means,
  ///   such as a chat message; when nil, such a line is a mistake.
  public static func scope<State: Codable & Sendable, Action: Codable & Sendable, Environment: Sendable>(
    _ name: String, reducer: Reducer<State, Action, Environment>? = nil, environment: Environment,
    render: @escaping @Sendable (State, Int) -> [String], commands: [WindowCommand<Action>],
    otherwise: (@Sendable (String) throws -> Action)? = nil, showsEnd: Bool = false
  ) -> WindowScope {
    let renderJSON: @Sendable (JSONValue, Int) -> [String] = { json, width in
      guard let state = try? json.decode(State.self) else { return GenericRendering.lines(of: json, width: width) }
      return render(state, width)
    }
    let parse: @Sendable (String) throws -> JSONValue = { text in
      let action: Action = try WindowCommand.parse(text, with: commands, otherwise: otherwise)
      return try JSONValue(encoding: action)
    }
    var apply: (@Sendable (JSONValue, JSONValue) -> JSONValue?)?
    if let reducer {
      apply = { json, actionJSON in
        guard var state = try? json.decode(State.self), let action = try? actionJSON.decode(Action.self) else {
          return nil
        }
        // As the daemon will: the action, then at once what it feeds back; no effect runs.
        let sent = Reduction.reduceWithFeedback(
          action, into: &state, reduce: { reducer.reduce(into: &$0, action: $1, environment: environment) }, each: { _ in })
        if sent.refusal != nil { return nil }
        return try? JSONValue(encoding: state)
      }
    }
    return WindowScope(
      name: name, render: renderJSON, parse: parse, help: commands.map(\.helpLine), applyLocally: apply,
      showsEnd: showsEnd)
  }

  /// A scope the app gave nothing for: its state shown as indented JSON, actions typed as JSON.
  public static func generic(_ name: String) -> WindowScope {
    WindowScope(
      name: name, render: { GenericRendering.lines(of: $0, width: $1) },
      parse: { _ in throw CommandError("this scope takes actions as JSON, such as {\"name\":{}}") },
      help: ["(actions as JSON)"], applyLocally: nil)
  }
}

/// The scopes of the app, as windows know them.
public struct ClientApp: Sendable {
  public let name: String
  public let scopes: [WindowScope]

  public init(name: String, scopes: [WindowScope]) {
    self.name = name
    self.scopes = scopes
  }

  /// The scope named `name` (without its parameter), or nil.
  public func scope(named name: String) -> WindowScope? {
    scopes.first { $0.name == name }
  }
}

/// A mistake in what a person typed, in a sentence.
public struct CommandError: Error, Sendable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// One command of a scope: its word, how to use it, and how it makes an action.
public struct WindowCommand<Action>: Sendable {
  public let word: String
  public let usage: String
  public let helpText: String
  public let make: @Sendable (CommandWords) throws -> Action

  public init(_ word: String, usage: String? = nil, help: String, make: @escaping @Sendable (CommandWords) throws -> Action) {
    self.word = word
    self.usage = usage ?? word
    self.helpText = help
    self.make = make
  }

  var helpLine: String { usage.padding(toLength: max(usage.count, 24), withPad: " ", startingAt: 0) + helpText }

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

/// The words after a command's own, split at spaces; quotes at the start of a word keep its
/// spaces (`add "Fix login" to doing`), and an apostrophe inside a word is just a letter.
public struct CommandWords: Sendable {
  public let all: [String]
  /// The text after the command's word, as typed: for free text such as a message.
  public let raw: String

  init(_ all: [String], raw: String? = nil) {
    self.all = all
    self.raw = raw ?? all.joined(separator: " ")
  }

  /// Splits `text`; `raw` becomes what follows the first word, as typed.
  init(_ text: String) {
    var words: [String] = []
    var current = ""
    var quote: Character?
    var inWord = false
    var afterFirstWord = text.endIndex
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      let next = text.index(after: index)
      let atWordEnd = next == text.endIndex || text[next].isWhitespace
      if let open = quote {
        if character == open, atWordEnd { quote = nil } else { current.append(character) }
      } else if character == "\"" || character == "'", !inWord {
        quote = character
        inWord = true
      } else if character.isWhitespace {
        if inWord {
          words.append(current)
          if words.count == 1 { afterFirstWord = index }
        }
        current = ""
        inWord = false
      } else {
        current.append(character)
        inWord = true
      }
      index = next
    }
    if inWord { words.append(current) }
    all = words
    raw = String(text[afterFirstWord...].drop { $0.isWhitespace })
  }

  /// The words after the first, with the text after the first word.
  var droppingFirst: CommandWords { CommandWords(Array(all.dropFirst()), raw: raw) }

  /// The word at `index`.
  public func word(_ index: Int, _ what: String = "a word") throws -> String {
    guard index < all.count else { throw CommandError("\(what) is missing") }
    return all[index]
  }

  /// The word at `index` as an integer: any `Int`, since integers reach the daemon exactly;
  /// one past `Int` is too large.
  public func integer(_ index: Int, _ what: String = "a number") throws -> Int {
    let text = try word(index, what)
    guard let value = Int(text) else {
      // One sign, then digits: a whole number, only past `Int`.
      let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : text[...]
      if !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) {
        throw CommandError("\(what) is too large: \(text)")
      }
      throw CommandError("\(what) must be a number, not \"\(text)\"")
    }
    return value
  }

  /// The words from `index` on, joined by spaces.
  public func rest(from index: Int, _ what: String = "text") throws -> String {
    guard index < all.count else { throw CommandError("\(what) is missing") }
    return all[index...].joined(separator: " ")
  }
}

/// A readable rendering of any state: indented JSON, cut to the width.
public enum GenericRendering {
  public static func lines(of json: JSONValue, width: Int) -> [String] {
    var lines: [String] = []
    write(json, indent: 0, prefix: "", into: &lines)
    return lines.map { TextFit.cut($0, max(2, width)) }
  }

  private static func write(_ json: JSONValue, indent: Int, prefix: String, into lines: inout [String]) {
    let pad = String(repeating: "  ", count: indent)
    switch json {
    case let .object(object) where !object.isEmpty:
      lines.append(pad + prefix + "{")
      for key in object.keys.sorted() { write(object[key]!, indent: indent + 1, prefix: "\(key): ", into: &lines) }
      lines.append(pad + "}")
    case let .array(array) where !array.isEmpty:
      lines.append(pad + prefix + "[")
      for element in array { write(element, indent: indent + 1, prefix: "", into: &lines) }
      lines.append(pad + "]")
    default:
      lines.append(pad + prefix + json.jsonText)
    }
  }
}
