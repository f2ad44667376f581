import Concord
import ConcordWire

/// An action a window has sent or queued that the daemon has not answered yet, with the origin
/// the window expects the daemon to give it (its user, the time it was typed).
public struct PendingAction: Sendable, Equatable {
  /// The scope's action, as the window sent it.
  public var action: JSONValue
  /// Who sent it and when, as the daemon will record it.
  public var origin: ActionOrigin

  /// A pending action.
  ///
  /// - Parameters:
  ///   - action: the scope's action as JSON.
  ///   - origin: the user and the time it was typed.
  public init(action: JSONValue, origin: ActionOrigin) {
    self.action = action
    self.origin = origin
  }
}

/// What a window shows while actions are pending: the scope's state after them, as the app's
/// reducer computes it, and which of them the reducer refused there.
public struct Prediction: Sendable, Equatable {
  /// The scope's state after the pending actions, as JSON, as a window shows it.
  public var state: JSONValue
  /// Why the app refused a pending action, by its place in the list it was given. The daemon
  /// decides in the end: it may see a different state.
  public var refusals: [Int: String]
  /// The app's whole state after the pending actions, to go on from when more are queued
  /// (see `ClientApp.predict`). Not part of what is shown, nor compared.
  public var progress: PredictionProgress?

  /// A prediction.
  ///
  /// - Parameters:
  ///   - state: the scope's state after the pending actions.
  ///   - refusals: the reasons for pending actions the app refused, by their place.
  ///   - progress: where the prediction stopped, to go on from.
  public init(state: JSONValue, refusals: [Int: String] = [:], progress: PredictionProgress? = nil) {
    self.state = state
    self.refusals = refusals
    self.progress = progress
  }

  public static func == (lhs: Prediction, rhs: Prediction) -> Bool {
    lhs.state == rhs.state && lhs.refusals == rhs.refusals
  }
}

/// Where a prediction stopped: the scope it was made for, how many pending actions it took, and
/// the app's state after them (of the app's own `State` type, opened again by the app).
public struct PredictionProgress: Sendable {
  let key: ScopeKey
  let taken: Int
  let state: any Sendable
}

extension HostedApp {
  /// The state of scope `key` once `pending` are taken, predicted from the state a window shows
  /// by the app's own reducer: the shown state is lifted into the initial state (the scope's
  /// `lift`), each action is embedded as the daemon embeds it, then admitted and reduced with
  /// what it feeds back by the host's own step (``reduceAdmitted(_:_:)``; no effect runs), and
  /// the scope is projected again. Rebasing is calling it again on the daemon's newer state with
  /// the actions still pending (as Replicache does).
  ///
  /// Nil when the scope has no lift, or the shown state is not the scope's.
  ///
  /// With `earlier`, a prediction of the same scope from the same `shown` whose pending actions
  /// are the first of `pending`, only the actions after those are reduced: a window with 1,000
  /// actions queued reduces one more when one more is queued, not 1,001. The caller vouches
  /// for `shown` and the actions being the same; an `earlier` of another scope, or of more
  /// actions than `pending`, is not used.
  ///
  /// ```swift
  /// let shown: JSONValue = ["count": 3]
  /// let one = app.predict(ScopeKey("counter"), shown: shown, pending: [increment])
  /// // Prediction(state: ["count": 4])
  /// app.predict(ScopeKey("counter"), shown: shown, pending: [increment, increment], after: one)
  /// // Prediction(state: ["count": 5]), one reduction
  /// ```
  package func predict(_ key: ScopeKey, shown: JSONValue, pending: [PendingAction], after earlier: Prediction? = nil)
    -> Prediction?
  {
    guard case let .success(scope) = scope(for: key), let lift = scope.lift else { return nil }
    var state: State
    var refusals: [Int: String]
    let start: Int
    if let earlier, let progress = earlier.progress, progress.key == key, progress.taken <= pending.count,
      let resumed = progress.state as? State
    {
      (state, refusals, start) = (resumed, earlier.refusals, progress.taken)
    } else {
      state = initialState
      do { try lift(&state, key.parameter, shown) } catch { return nil }
      (refusals, start) = ([:], 0)
    }
    for (index, pending) in pending.enumerated().dropFirst(start) {
      let action: Action
      do {
        action = try scope.embed(key.parameter, pending.action, pending.origin)
      } catch {
        refusals[index] = WireCoding.describe(error)
        continue
      }
      let step = Reduction.reduceWithFeedback(action, into: &state, reduce: reduceAdmitted, each: { _ in })
      if let refusal = step.refusal { refusals[index] = refusal.reason }
    }
    // The element the scope names may be gone (a pending action removed it): nothing to show.
    guard let projected = scope.project(state, key.parameter), let json = try? projected.json().json else { return nil }
    return Prediction(
      state: json, refusals: refusals, progress: PredictionProgress(key: key, taken: pending.count, state: state))
  }
}
