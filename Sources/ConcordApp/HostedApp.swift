import Concord
import ConcordWire

/// An application the daemon can host: its state, its reducer, its scopes, and how it evolves.
///
/// The daemon runtime knows nothing else about the app. Actions are `Codable` because every one
/// of them is kept in the log (as JSON, with the app's name and version) and replayed at boot.
///
/// ```swift
/// let app = HostedApp(
///   name: "Counter", version: 1, initialState: Counter(), reducer: counter, environment: (),
///   scopes: [.scope("count", state: \.count, action: { (delta: Int) in .add(delta) })])
/// ```
public struct HostedApp<State: Codable & Sendable, Action: Codable & Sendable>: Sendable {
  /// Recorded with every entry of the log.
  public var name: String
  /// The schema version of the app's actions and state; recorded with every entry.
  public var version: Int
  /// The state of an empty log: what replay starts from.
  public var initialState: State
  /// The child stores windows attach to, by name.
  public var scopes: [AppScope<State, Action>]
  /// The actions the daemon sends about the app's own life: boot, windows coming and going.
  public var lifecycle: AppLifecycle<Action>
  package let reduce: @Sendable (inout State, Action) -> Effect<Action>
  /// Why a new action may not be taken, for rules the log's older entries need not meet.
  package var admission: @Sendable (Action) -> String?
  /// What an applied action did, in the app's words, from the states before and after it
  /// (`moved #3 Fix login from todo to doing`): what the log's inspector lists. Nil when the
  /// app has no words; the inspector then shows the action's JSON.
  public var describeLogged: (@Sendable (_ action: Action, _ before: State, _ after: State) -> String?)?
  /// Turns the JSON of an action written by an older version into this version's JSON.
  package let migrateAction: @Sendable (_ action: JSONValue, _ fromVersion: Int) throws -> JSONValue

  /// - Parameters:
  ///   - name: the app's name, recorded with every entry; a log of another app is refused.
  ///   - version: the version of the app's actions and state; raise it when their JSON changes.
  ///   - initialState: the state of an empty log.
  ///   - reducer: the app's logic, the same one the daemon, replay and windows run.
  ///   - environment: the reducer's dependencies.
  ///   - admission: rules for new actions only (a limit the app set after entries that break it
  ///     may be in its log): the reason an action may not be taken, or nil. The daemon refuses
  ///     and logs such an action; replay never asks, so older entries still boot. The default
  ///     takes everything.
  ///   - scopes: the child stores windows attach to.
  ///   - lifecycle: the actions for boot and for windows coming and going.
  ///   - migrateAction: called for each logged action whose version is older than `version`;
  ///     return the action as this version spells it, or throw to say it cannot be read. The
  ///     default throws.
  public init<Environment: Sendable>(
    name: String, version: Int, initialState: State,
    reducer: Reducer<State, Action, Environment>, environment: Environment,
    admission: @escaping @Sendable (Action) -> String? = { _ in nil },
    scopes: [AppScope<State, Action>], lifecycle: AppLifecycle<Action> = AppLifecycle(),
    migrateAction: @escaping @Sendable (JSONValue, Int) throws -> JSONValue = { _, version in
      throw MigrationError(message: "no migration from version \(version)")
    }
  ) {
    self.name = name
    self.version = version
    self.initialState = initialState
    self.scopes = scopes
    self.lifecycle = lifecycle
    self.reduce = { state, action in reducer.reduce(into: &state, action: action, environment: environment) }
    self.migrateAction = migrateAction
    self.admission = admission
  }

  /// The step a new action takes, and every action it feeds back: admission first, then the
  /// app's reducer. The daemon's host and a window's prediction both reduce with it (with
  /// ``Reduction/reduceWithFeedback(_:into:reduce:check:each:)``), so a window predicts the
  /// refusal of a fed-back action as the host makes it; replaying the log reduces without it.
  ///
  /// ```swift
  /// Reduction.reduceWithFeedback(action, into: &state, reduce: app.reduceAdmitted, each: { _ in })
  /// ```
  package func reduceAdmitted(_ state: inout State, _ action: Action) -> Effect<Action> {
    if let reason = admission(action) { return .refuse(Refusal(reason)) }
    return reduce(&state, action)
  }

  /// The scope named `name` (without its parameter).
  package func scope(named name: String) -> AppScope<State, Action>? {
    scopes.first { $0.name == name }
  }

  /// The scope `key` names, given with a parameter exactly when it takes one; otherwise why not,
  /// in words.
  package func scope(for key: ScopeKey) -> Result<AppScope<State, Action>, ScopeLookupError> {
    guard let scope = scope(named: key.name) else {
      let names = scopes.map(\.usage).joined(separator: ", ")
      return .failure(ScopeLookupError(description: "no scope \"\(key.name)\"; the scopes are \(names)"))
    }
    guard scope.isParameterized == (key.parameter != nil) else {
      let usage = scope.usage
      return .failure(ScopeLookupError(description: "name the scope as \(usage)"))
    }
    return .success(scope)
  }
}

/// Why a scope's name does not name one of the app's scopes.
package struct ScopeLookupError: Error, CustomStringConvertible {
  package let description: String
}

/// Why an older action could not be brought to the current version.
public struct MigrationError: Error, Sendable, CustomStringConvertible {
  /// What could not be read, for the daemon's boot error.
  public var message: String
  /// What a `migrateAction` throws for an action it cannot bring up to date.
  ///
  /// - Parameter message: what could not be read, and from which version.
  public init(message: String) { self.message = message }
  public var description: String { message }
}
