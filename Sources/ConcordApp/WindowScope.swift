import Concord
import ConcordWire
import Foundation

/// How a window shows one of the app's scopes and reads what a person types there: the app's
/// renderer and its command parser. (Actions show before the daemon has them through the app's
/// own reducer: ``ClientApp/init(hosting:scopes:)``.)
///
/// ```swift
/// WindowScope.scope(
///   "counter",
///   render: { count, _ in ["Count: \(count)"] },
///   commands: [
///     WindowCommand("inc", help: "add one") { _ in .increment },
///     WindowCommand("add", usage: "add N", help: "add N") { words in .add(amount: try words.integer(0)) },
///   ])
/// ```
public struct WindowScope: Sendable {
  /// The scope's name, as the hosted app gives it (`board`, `card`).
  public let name: String
  /// The state as lines of at most the context's width; ANSI colour is allowed. The context
  /// holds the daemon's state when pending actions make the one shown differ from it (what
  /// differs is pending, to be marked so).
  public let render: @Sendable (JSONValue, RenderContext<JSONValue>) -> [String]
  /// An action from words (`add 5`); throws a ``CommandError`` saying what was expected.
  public let parse: @Sendable (String) throws -> JSONValue
  /// The commands as a person reads them: `help` in a window and `concord words` print these
  /// lines. ``briefHelp`` is the same list without the examples.
  public let help: [String]
  /// The commands without their examples: what a window shows where room is short.
  public let briefHelp: [String]
  /// True when the last lines matter most (a conversation): a window too short for all of
  /// them shows the end rather than the beginning.
  public let showsEnd: Bool
  /// Throws, saying why, when a JSON value is not one of the scope's actions; nil when the
  /// window cannot tell (the daemon then decides).
  public let check: (@Sendable (JSONValue) throws -> Void)?
  /// The words that start a command, for Tab.
  public let words: [String]
  /// Lines a person could type here, one a command (or the JSON of an action), for examples in
  /// a program's `--help`.
  public let examples: [String]
  /// What an applied action did, in the app's words (`added #7 Fix login to todo`), from the
  /// action and the scope's state that holds it; nil where the typed line says it best.
  public let outcome: @Sendable (_ action: JSONValue, _ state: JSONValue) -> String?
  /// The words Tab offers after the first (card numbers, columns, people): from the state shown,
  /// the words before the one being typed, and what of it is typed.
  public let choices: @Sendable (_ state: JSONValue, _ before: [String], _ typed: String) -> [WordChoice]
  /// What a line will do that cannot be undone (`delete message 3 for good`), for the window to
  /// ask first; nil for a line that can be.
  public let confirmation: @Sendable (String) -> String?
  /// How many of the first lines of the state drawn are its header, kept in sight while the
  /// rest scrolls under it (a board's column names and counts, as a spreadsheet keeps its
  /// first row); 0 for none.
  public let header: @Sendable (JSONValue) -> Int

  /// A scope described in JSON terms, for a window that knows no Swift types of the app (the
  /// generic window is one); ``scope(_:render:commands:otherwise:otherwiseHelp:showsEnd:outcome:choices:header:)``
  /// makes one from typed state and actions.
  ///
  /// - Parameters:
  ///   - name: the scope's name.
  ///   - render: the state as lines.
  ///   - parse: an action from a typed line.
  ///   - help: the commands, as help lists them.
  ///   - briefHelp: the same without examples; `help` when nil.
  ///   - showsEnd: true when the last lines matter most.
  ///   - check: whether a JSON value is one of the scope's actions; nil when unknown.
  ///   - confirmation: what a line will do that cannot be undone, for the window to ask first.
  ///   - words: the words that start a command, for Tab.
  ///   - examples: lines a person could type, for a program's `--help`.
  ///   - outcome: what an applied action did, in words.
  ///   - choices: what Tab offers after a command's first word.
  ///   - header: how many first lines stay in sight while the rest scrolls.
  public init(
    name: String, render: @escaping @Sendable (JSONValue, RenderContext<JSONValue>) -> [String],
    parse: @escaping @Sendable (String) throws -> JSONValue, help: [String], briefHelp: [String]? = nil,
    showsEnd: Bool = false,
    check: (@Sendable (JSONValue) throws -> Void)? = nil, confirmation: @escaping @Sendable (String) -> String? = { _ in nil },
    words: [String] = [], examples: [String] = [], outcome: @escaping @Sendable (JSONValue, JSONValue) -> String? = { _, _ in nil },
    choices: @escaping @Sendable (JSONValue, [String], String) -> [WordChoice] = { _, _, _ in [] },
    header: @escaping @Sendable (JSONValue) -> Int = { _ in 0 }
  ) {
    self.header = header
    self.outcome = outcome
    self.choices = choices
    self.words = words
    self.examples = examples
    self.confirmation = confirmation
    self.showsEnd = showsEnd
    self.check = check
    self.name = name
    self.render = render
    self.parse = parse
    self.help = help
    self.briefHelp = briefHelp ?? help
  }

  /// A scope with a typed state, actions, renderer and commands.
  ///
  /// - Parameters:
  ///   - name: the scope's name, as the hosted app gives it.
  ///   - render: the state as lines; the context has the width, and the daemon's state when
  ///     pending actions make the shown one differ (``RenderContext``).
  ///   - commands: the scope's words, each a command that makes an action.
  ///   - otherwise: what a line that starts with none of the commands' words means, such as a
  ///     chat message or a note; when nil, such a line is a mistake.
  ///   - otherwiseHelp: what such a line does, as `help` says it after the commands ("is said
  ///     in the channel"); where the commands begin with `/`, help adds that `//` starts a line
  ///     with a slash.
  ///   - showsEnd: true when the last lines matter most (a conversation).
  ///   - outcome: what an applied action did, in words, from the state that holds it.
  ///   - choices: what Tab offers after a command's first word, from the state shown, the words
  ///     before and what is typed (``WordChoice``).
  ///   - header: how many of the first lines drawn for a state are its header, kept in sight
  ///     while the rest scrolls.
  public static func scope<State: Codable & Sendable, Action: Codable & Sendable>(
    _ name: String,
    render: @escaping @Sendable (State, RenderContext<State>) -> [String], commands: [WindowCommand<Action>] = [],
    otherwise: (@Sendable (String) throws -> Action)? = nil, otherwiseHelp: String? = nil, showsEnd: Bool = false,
    outcome: @escaping @Sendable (Action, State) -> String? = { _, _ in nil },
    choices: @escaping @Sendable (State, [String], String) -> [WordChoice] = { _, _, _ in [] },
    header: (@Sendable (State) -> Int)? = nil
  ) -> WindowScope {
    // The scope's elements as last decoded: a change to a big state decodes what changed.
    let memo = DecodeMemo()
    let renderJSON: @Sendable (JSONValue, RenderContext<JSONValue>) -> [String] = { json, context in
      guard let state = try? json.decode(State.self, memo: memo) else { return OutlineRendering.lines(of: json, context) }
      return render(state, context.map { try $0.decode(State.self, memo: memo) })
    }
    let parse: @Sendable (String) throws -> JSONValue = { text in
      let action: Action = try WindowCommand.parse(text, with: commands, otherwise: otherwise)
      return try JSONValue(encoding: action)
    }
    // What a line that is no command does, said after the commands.
    var other: [String] = []
    if otherwise != nil, let otherwiseHelp {
      other = ["", "Any other line \(otherwiseHelp)."]
      if commands.contains(where: { $0.word.hasPrefix("/") }) {
        other.append("A line that starts with / is a command; start it with // to say it (//shrug says /shrug).")
      }
    }
    return WindowScope(
      name: name, render: renderJSON, parse: parse, help: CommandHelp.lines(for: commands) + other,
      briefHelp: CommandHelp.lines(for: commands, examples: false) + other, showsEnd: showsEnd,
      check: { _ = try $0.decode(Action.self) },
      confirmation: { WindowCommand.confirmation(for: $0, with: commands) }, words: commands.map(\.word),
      examples: commands.compactMap(\.example),
      outcome: { action, state in
        guard let action = try? action.decode(Action.self), let state = try? state.decode(State.self) else { return nil }
        return outcome(action, state)
      },
      choices: { state, before, typed in (try? state.decode(State.self)).map { choices($0, before, typed) } ?? [] },
      header: { json in header.flatMap { header in (try? json.decode(State.self, memo: memo)).map(header) } ?? 0 })
  }

  /// A scope the window knows nothing of but its name: its state as an outline
  /// (``OutlineRendering``), actions typed as JSON and left to the daemon to check.
  public static func generic(_ name: String) -> WindowScope {
    WindowScope(
      name: name, render: OutlineRendering.lines,
      parse: { _ in throw CommandError("this scope takes actions as JSON, such as {\"name\":{}}") },
      help: ["Type an action as JSON: an object with one member, named for its case."])
  }

  /// A scope the app gave no renderer and no words for: its state as an outline that marks what
  /// is pending (``OutlineRendering``), and actions typed as JSON, checked against the scope's
  /// action type before they are queued. `help` names the action's cases, with an example of
  /// each, when the action type gives them (``ActionExamples``).
  public static func generic<State, Action>(for scope: AppScope<State, Action>) -> WindowScope {
    let examples = scope.actionExamples()
    let cases = examples.compactMap(ActionExampleJSON.caseName)
    let named = cases.isEmpty ? "" : " (its actions: \(cases.joined(separator: ", ")))"
    let help: [String]
    if scope.checkAction == nil {
      help = ["\(scope.name) is read only: it shows, and takes no actions."]
    } else if examples.isEmpty {
      help = ["Type an action as JSON: an object with one member, named for its case."]
    } else {
      let column = (cases.map(\.count).max() ?? 0) + 2
      help = ["Type an action as JSON, one of:"]
        + zip(cases, examples).map { name, json in "  " + name + String(repeating: " ", count: column - name.count) + json.jsonText }
    }
    return WindowScope(
      name: scope.name, render: OutlineRendering.lines,
      parse: { _ in
        guard scope.checkAction != nil else { throw CommandError("\(scope.name) is read only: it takes no actions") }
        throw CommandError("\(scope.name) takes actions as JSON\(named); `help` shows an example of each")
      },
      help: help,
      check: { json in
        guard let check = scope.checkAction else { throw CommandError("\(scope.name) is read only: it takes no actions") }
        do {
          try check(json)
        } catch {
          throw CommandError("not one of \(scope.name)'s actions\(named): \(WireCoding.describe(error))")
        }
      },
      examples: examples.map(\.jsonText))
  }
}
