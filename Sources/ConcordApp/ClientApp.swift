import ConcordWire

/// The scopes of the app, as windows know them, and how a window shows an action before the
/// daemon has answered it.
///
/// ```swift
/// ClientApp(hosting: Counter.hosted, scopes: [.scope("counter", render: …, commands: …)])
/// ```
public struct ClientApp: Sendable {
  /// The app's name, as its `HostedApp` gives it: windows and daemon must agree on it.
  public let name: String
  /// How a window shows each scope and which commands it takes there.
  public let scopes: [WindowScope]
  /// The state of a scope (`board`, `card:42`) after actions still pending, by the app's own
  /// reducer, going on from an earlier prediction of the first of them when there is one
  /// (by the hosted app's reducer); nil when the app cannot tell.
  public let predict:
    @Sendable (_ scope: String, _ shown: JSONValue, _ pending: [PendingAction], _ earlier: Prediction?) -> Prediction?

  /// An app whose windows show pending actions only as a count: nothing runs its reducer.
  ///
  /// - Parameters:
  ///   - name: the app's name, the same as the daemon's.
  ///   - scopes: how windows show each scope.
  public init(name: String, scopes: [WindowScope]) {
    self.name = name
    self.scopes = scopes
    predict = { _, _, _, _ in nil }
  }

  /// The windows of `app`: an action shows the moment it is typed, computed by the same
  /// reducer the daemon runs, on the scopes that can be lifted back into the app's state.
  ///
  /// - Parameters:
  ///   - app: the app the daemon hosts, whose reducer predicts pending actions.
  ///   - scopes: how windows show the scopes the app gives a look of its own; every
  ///     other scope of the app gets a generic window (``WindowScope/generic(for:)``): its state
  ///     as an outline, actions typed as JSON.
  public init<State: Codable & Sendable, Action: Codable & Sendable>(hosting app: HostedApp<State, Action>, scopes: [WindowScope] = []) {
    name = app.name
    let given = Set(scopes.map(\.name))
    self.scopes = scopes + app.scopes.filter { !given.contains($0.name) }.map(WindowScope.generic(for:))
    predict = { scope, shown, pending, earlier in
      app.predict(ScopeKey(scope), shown: shown, pending: pending, after: earlier)
    }
  }

  /// The scope named `name` (without its parameter), or nil.
  public func scope(named name: String) -> WindowScope? {
    scopes.first { $0.name == name }
  }
}
