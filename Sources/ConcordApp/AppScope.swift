import ConcordWire
import Foundation

/// A named, derived child store the daemon serves: a projection of the app's state to a child
/// state, and an embedding of the child's actions into the app's actions.
///
/// A window attaches to a scope by name, or to a parameterized scope by `name:parameter`
/// (`card:42`, `chat:general`), and can only send that scope's actions.
///
/// ```swift
/// .scope("board", state: { $0.board }, action: AppAction.board)
/// .scope("card", parameter: { Int($0) }, placeholder: "ID", state: { state, id in state.cards[id: id] },
///        action: { id, action in .card(id: id, action) })
/// ```
public struct AppScope<State: Sendable, Action: Sendable>: Sendable {
  /// The scope's name: what a window attaches to (`board`), or what comes before the colon of
  /// a parameterized one (`card` in `card:42`).
  public let name: String
  /// True for a scope with one child state per parameter (`card:ID`).
  public let isParameterized: Bool
  /// What stands for the parameter where people are shown how to name the scope (`ID` in
  /// `card:ID`); nil for a scope without one.
  public let placeholder: String?
  /// How people name the scope: `board`, or `card:ID` for a parameterized one. One spelling,
  /// in help, errors and the daemon's welcome alike.
  public var usage: String { placeholder.map { "\(name):\($0)" } ?? name }
  /// The child state for a parameter; nil when the parameter names no element.
  package let project: @Sendable (State, String?) -> ProjectedState?
  /// The app action for a child action sent as JSON; throws when it is not one.
  package let embed: @Sendable (String?, JSONValue, ActionOrigin) throws -> Action
  /// Puts a child state (as JSON) back into an app state, for a window to run the app's own
  /// reducer on what it shows (``HostedApp/predict(_:shown:pending:)``); nil when the scope
  /// gives no way. Throws when the JSON is not the scope's state.
  package let lift: (@Sendable (inout State, String?, JSONValue) throws -> Void)?
  /// Throws, saying why, when a JSON value is not one of the scope's actions (it does not decode
  /// as the scope's action type); nil for a read-only scope. What a window with no words for the
  /// scope checks before it queues an action.
  package let checkAction: (@Sendable (JSONValue) throws -> Void)?
  /// One action of each case, as JSON, when the scope's action type gives them
  /// (``ActionExamples``): what such a window's `help` lists. Asked for only then: finding
  /// whether a type gives them searches every conformance of the program, which the daemon's
  /// start need not pay for.
  package let actionExamples: @Sendable () -> [JSONValue]
  /// Whether the child state's JSON is small by its type (``ProjectedState/isSmall(_:)``): the
  /// line limit need not measure it.
  package let isSmallByType: Bool

  /// A scope with one child state.
  public static func scope<Child: Codable & Equatable & Sendable, ChildAction: Decodable & Sendable>(
    _ name: String, state: @escaping @Sendable (State) -> Child,
    lift: (@Sendable (inout State, Child) -> Void)? = nil,
    action: @escaping @Sendable (ChildAction) -> Action
  ) -> AppScope {
    scope(name, state: state, lift: lift, action: { (_: ActionOrigin, child: ChildAction) in action(child) })
  }

  /// A scope windows can watch but not act through, such as who is connected.
  ///
  /// - Parameters:
  ///   - name: the scope's name.
  ///   - state: the part of the app's state its windows see.
  public static func readOnly<Child: Encodable & Equatable & Sendable>(
    _ name: String, state: @escaping @Sendable (State) -> Child
  ) -> AppScope {
    AppScope(
      name: name, isParameterized: false, placeholder: nil,
      project: { appState, _ in ProjectedState(state(appState)) },
      embed: { _, _, _ in throw ScopeError.readOnly(name) }, lift: nil, checkAction: nil, actionExamples: { [] },
      isSmallByType: ProjectedState.isSmall(Child.self))
  }

  /// A scope with one child state, whose actions carry who sent them and when: what an app
  /// needs to record authors, refuse editing someone else's message, or date a change —
  /// deterministically, since the origin is part of the action the log keeps.
  ///
  /// ```swift
  /// .scope("board", state: { $0.board }, action: { origin, action in
  ///   .board(Authored(user: origin.user, at: origin.at, action))
  /// })
  /// ```
  ///
  /// - Parameters:
  ///   - name: the scope's name, what a window attaches to.
  ///   - state: the part of the app's state its windows see.
  ///   - lift: puts a child state back into an app state, so that a window can show an
  ///     action the moment it is typed, by the app's own reducer: the window lifts the state it
  ///     shows into the app's initial state, reduces the pending actions, and projects the scope
  ///     again. Projecting what it lifts must give the child state back. Without it, a window
  ///     shows pending actions only as a count.
  ///   - action: embeds a child action, with who sent it and when, in the app's actions.
  public static func scope<Child: Codable & Equatable & Sendable, ChildAction: Decodable & Sendable>(
    _ name: String, state: @escaping @Sendable (State) -> Child,
    lift: (@Sendable (inout State, Child) -> Void)? = nil,
    action: @escaping @Sendable (ActionOrigin, ChildAction) -> Action
  ) -> AppScope {
    AppScope(
      name: name, isParameterized: false, placeholder: nil,
      project: { appState, _ in ProjectedState(state(appState)) },
      embed: { _, json, origin in action(origin, try json.decode(ChildAction.self)) },
      lift: lift.map(liftingJSON), checkAction: { _ = try $0.decode(ChildAction.self) },
      actionExamples: { ActionExampleJSON.of(ChildAction.self) },
      isSmallByType: ProjectedState.isSmall(Child.self))
  }

  /// A scope that is a part of the app's state: a window lifts it back by the same path.
  ///
  /// ```swift
  /// .scope("counter", state: \.counter, action: AppAction.counter)
  /// ```
  public static func scope<Child: Codable & Equatable & Sendable, ChildAction: Decodable & Sendable>(
    _ name: String, state path: WritableKeyPath<State, Child> & Sendable,
    action: @escaping @Sendable (ChildAction) -> Action
  ) -> AppScope {
    scope(
      name, state: { $0[keyPath: path] }, lift: { $0[keyPath: path] = $1 },
      action: { (_: ActionOrigin, child: ChildAction) in action(child) })
  }

  /// A scope with one child state per parameter, such as one element of a collection.
  ///
  /// - Parameters:
  ///   - name: the scope's name, before the colon (`card`).
  ///   - parameter: reads the text after the colon; nil when it names nothing (`card:x`).
  ///   - placeholder: what stands for the parameter when people are shown how to name
  ///     the scope (`card:ID`).
  ///   - state: the child state for a parameter; nil when no element has it.
  ///   - lift: puts a child state back into an app state (see the unparameterized form).
  ///   - action: embeds a child action for a parameter in the app's actions.
  public static func scope<ID: Sendable, Child: Codable & Equatable & Sendable, ChildAction: Decodable & Sendable>(
    _ name: String, parameter: @escaping @Sendable (String) -> ID?, placeholder: String = "PARAMETER",
    state: @escaping @Sendable (State, ID) -> Child?,
    lift: (@Sendable (inout State, ID, Child) -> Void)? = nil,
    action: @escaping @Sendable (ID, ChildAction) -> Action
  ) -> AppScope {
    scope(
      name, parameter: parameter, placeholder: placeholder, state: state, lift: lift,
      action: { (id: ID, _: ActionOrigin, child: ChildAction) in action(id, child) })
  }

  /// A parameterized scope whose actions carry who sent them and when.
  public static func scope<ID: Sendable, Child: Codable & Equatable & Sendable, ChildAction: Decodable & Sendable>(
    _ name: String, parameter: @escaping @Sendable (String) -> ID?, placeholder: String = "PARAMETER",
    state: @escaping @Sendable (State, ID) -> Child?,
    lift: (@Sendable (inout State, ID, Child) -> Void)? = nil,
    action: @escaping @Sendable (ID, ActionOrigin, ChildAction) -> Action
  ) -> AppScope {
    AppScope(
      name: name, isParameterized: true, placeholder: placeholder,
      project: { appState, text in
        guard let text, let id = parameter(text), let child = state(appState, id) else { return nil }
        return ProjectedState(child)
      },
      embed: { text, json, origin in
        guard let text, let id = parameter(text) else { throw ScopeError.badParameter }
        return action(id, origin, try json.decode(ChildAction.self))
      },
      lift: lift.map { liftingJSON($0, parameter: parameter) }, checkAction: { _ = try $0.decode(ChildAction.self) },
      actionExamples: { ActionExampleJSON.of(ChildAction.self) },
      isSmallByType: ProjectedState.isSmall(Child.self))
  }

  /// A lift of the child state's JSON, from a lift of the typed child state.
  private static func liftingJSON<Child: Decodable & Sendable>(
    _ lift: @escaping @Sendable (inout State, Child) -> Void
  ) -> @Sendable (inout State, String?, JSONValue) throws -> Void {
    { state, _, json in lift(&state, try json.decode(Child.self)) }
  }

  private static func liftingJSON<ID, Child: Decodable & Sendable>(
    _ lift: @escaping @Sendable (inout State, ID, Child) -> Void, parameter: @escaping @Sendable (String) -> ID?
  ) -> @Sendable (inout State, String?, JSONValue) throws -> Void {
    { state, text, json in
      guard let text, let id = parameter(text) else { throw ScopeError.badParameter }
      lift(&state, id, try json.decode(Child.self))
    }
  }

  enum ScopeError: Error, CustomStringConvertible {
    case badParameter
    case readOnly(String)

    var description: String {
      switch self {
      case .badParameter: "the scope's parameter names nothing"
      case let .readOnly(name): "\(name) is read only: it takes no actions"
      }
    }
  }
}
