import ConcordApp
import ConcordWire
import Foundation

/// Every line the daemon writes fits the limit it imposes on its peers (1 MiB): a scope's state
/// is sent whole in a snapshot, so an action that would make a state too large to send is
/// refused, with the reason, like any other refusal.
extension DaemonHost {
  /// Why `state` cannot be sent to the windows, when one of its scopes would not fit in a line:
  /// the scopes windows watch, and every scope without a parameter (anyone may attach to them).
  /// A parameterized scope nobody watches is bounded by the app (a card's texts have limits);
  /// if one is still too large when a window attaches, the window is told so.
  ///
  /// Only a scope whose state changed since it last fitted is measured.
  /// An action that leaves a scope as large as before, or smaller, is let through even when
  /// the scope is already too large (a log from before the limit, an app that grew): otherwise
  /// nothing could ever make it smaller.
  func scopeTooLargeToSend(_ state: State, before: State) -> String? {
    // A scope whose state is small by its type cannot outgrow a line: not even projected.
    for (name, instance) in instances where !instance.connections.isEmpty && !instance.scope.isSmallByType {
      let reason = tooLarge(name, after: state, before: before) { instance.scope.project($0, instance.key.parameter) }
      if let reason { return reason }
    }
    for scope in app.scopes
    where !scope.isParameterized && !scope.isSmallByType && instances[scope.name]?.connections.isEmpty != false {
      if let reason = tooLarge(scope.name, after: state, before: before, { scope.project($0, nil) }) { return reason }
    }
    return nil
  }

  private func tooLarge(
    _ name: String, after state: State, before: State, _ project: (State) -> ProjectedState?
  ) -> String? {
    guard let projected = project(state), !projected.hasSameValue(as: fittingStates[name]?.projected) else { return nil }
    // A state that cannot be encoded is shown as null (`encodedState`): that fits.
    guard let encoded = try? projected.json(memo: encodeMemo(for: name)) else { return nil }
    let limit = WireLimits.maximumStateBytes(scope: name)
    if encoded.bytes <= limit {
      fittingStates[name] = FittingState(projected: projected, encoded: encoded)
      return nil
    }
    // Without the memo: the state before would put back what the one after replaced.
    if let earlier = try? project(before)?.json(), earlier.bytes >= encoded.bytes { return nil }
    return "this would make the state of \(name) \(encoded.bytes.grouped) bytes, more than one line to a window can carry (\(limit.grouped)); make it smaller first"
  }
}

/// A scope's state that was measured and fits in a line, with the JSON it was measured by: the
/// commit that publishes it takes that JSON instead of encoding the state again.
struct FittingState {
  let projected: ProjectedState
  let encoded: (json: JSONValue, bytes: Int)
}

extension DaemonHost {
  /// The memo of `scope`'s elements (``encodeMemos``), made when first asked for.
  func encodeMemo(for scope: String) -> EncodeMemo {
    if let memo = encodeMemos[scope] { return memo }
    let memo = EncodeMemo(capacity: 5_000)
    encodeMemos[scope] = memo
    return memo
  }
}
