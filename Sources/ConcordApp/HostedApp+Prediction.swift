import Concord
import ConcordWire

/// An action a window has sent or queued that the daemon has not answered yet, with the origin
/// the window expects the daemon to give it (its user, the time it was typed).
public struct PendingAction: Sendable, Equatable {
  public var action: JSONValue
  public var origin: ActionOrigin

  public init(action: JSONValue, origin: ActionOrigin) {
    self.action = action
    self.origin = origin
  }
}

/// What a window shows while actions are pending: the scope's state after them, as the app's
/// reducer computes it, and which of them the reducer refused there.
public struct Prediction: Sendable, Equatable {
  public var state: JSONValue
  /// Why the app refused a pending action, by its place in the list it was given. The daemon
  /// decides in the end: it may see a different state.
  public var refusals: [Int: String]

  public init(state: JSONValue, refusals: [Int: String] = [:]) {
    self.state = state
    self.refusals = refusals
  }
}

extension HostedApp {
  /// The state of scope `key` once `pending` are taken, predicted from the state a window shows
  /// by the app's own reducer: the shown state is lifted into the initial state (the scope's
  /// `lift`), each action is embedded as the daemon embeds it, reduced with what it feeds back
  /// (no effect runs), and the scope is projected again. Rebasing is calling it again on the
  /// daemon's newer state with the actions still pending (as Replicache does).
  ///
  /// Nil when the scope has no lift, or the shown state is not the scope's.
  ///
  /// ```swift
  /// let shown: JSONValue = ["count": 3]
  /// app.predict(ScopeKey("counter"), shown: shown, pending: [PendingAction(action: ["increment": [:]], origin: origin)])
  /// // Prediction(state: ["count": 4])
  /// ```
  package func predict(_ key: ScopeKey, shown: JSONValue, pending: [PendingAction]) -> Prediction? {
    guard case let .success(scope) = scope(for: key), let lift = scope.lift else { return nil }
    var state = initialState
    do { try lift(&state, key.parameter, shown) } catch { return nil }
    var refusals: [Int: String] = [:]
    for (index, pending) in pending.enumerated() {
      let action: Action
      do {
        action = try scope.embed(key.parameter, pending.action, pending.origin)
      } catch {
        refusals[index] = WireCoding.describe(error)
        continue
      }
      if let reason = admission(action) {
        refusals[index] = reason
        continue
      }
      let step = Reduction.reduceWithFeedback(action, into: &state, reduce: reduce, each: { _ in })
      if let refusal = step.refusal { refusals[index] = refusal.reason }
    }
    // The element the scope names may be gone (a pending action removed it): nothing to show.
    guard let projected = scope.project(state, key.parameter), let json = try? projected.json().json else { return nil }
    return Prediction(state: json, refusals: refusals)
  }
}
