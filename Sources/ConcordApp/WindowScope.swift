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
  /// The commands as a person reads them (``CommandHelp``): `help` in a window and
  /// `concord words` print these lines. ``briefHelp`` is the same list without the examples.
  public let help: [String]
  public let briefHelp: [String]
  /// The state after the action, by the scope's own reducer; nil when it refuses or cannot tell.
  public let applyLocally: (@Sendable (JSONValue, JSONValue) -> JSONValue?)?
  /// True when the last lines matter most (a conversation): a window too short for all of
  /// them shows the end rather than the beginning.
  public let showsEnd: Bool
  /// Throws, saying why, when a JSON value is not one of the scope's actions; nil when the
  /// window cannot tell (the daemon then decides).
  public let check: (@Sendable (JSONValue) throws -> Void)?
  /// The words that start a command, for Tab.
  public let words: [String]
  /// What a line will do that cannot be undone (`delete message 3 for good`), for the window to
  /// ask first; nil for a line that can be.
  public let confirmation: @Sendable (String) -> String?

  public init(
    name: String, render: @escaping @Sendable (JSONValue, Int) -> [String],
    parse: @escaping @Sendable (String) throws -> JSONValue, help: [String], briefHelp: [String]? = nil,
    applyLocally: (@Sendable (JSONValue, JSONValue) -> JSONValue?)?, showsEnd: Bool = false,
    check: (@Sendable (JSONValue) throws -> Void)? = nil, confirmation: @escaping @Sendable (String) -> String? = { _ in nil },
    words: [String] = []
  ) {
    self.words = words
    self.confirmation = confirmation
    self.showsEnd = showsEnd
    self.check = check
    self.name = name
    self.render = render
    self.parse = parse
    self.help = help
    self.briefHelp = briefHelp ?? help
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
      name: name, render: renderJSON, parse: parse, help: CommandHelp.lines(for: commands),
      briefHelp: CommandHelp.lines(for: commands, examples: false), applyLocally: apply,
      showsEnd: showsEnd, check: { _ = try $0.decode(Action.self) },
      confirmation: { WindowCommand.confirmation(for: $0, with: commands) }, words: commands.map(\.word))
  }

  /// A scope the app gave nothing for: its state shown as indented JSON, actions typed as JSON.
  public static func generic(_ name: String) -> WindowScope {
    WindowScope(
      name: name, render: { GenericRendering.lines(of: $0, width: $1) },
      parse: { _ in throw CommandError("this scope takes actions as JSON, such as {\"name\":{}}") },
      help: ["(actions as JSON)"], applyLocally: nil)
  }
}
