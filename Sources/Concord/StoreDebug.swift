import CustomDump

/// What a store writes about each action when debugging is on.
///
/// ```swift
/// let store = Store(initialState: App(), reducer: app, environment: .live, debug: .diffs())
/// // received action:
/// //   AppAction.counter(.increment)
/// //   App(
/// // −   count: 0
/// // +   count: 1
/// //   )
/// ```
public struct StoreDebug: Sendable {
  @usableFromInline
  let write: @Sendable (String) -> Void

  /// Describes each action and the change it made to the state, as a readable diff.
  /// - Parameter write: where the text goes; standard output by default.
  public static func diffs(to write: @escaping @Sendable (String) -> Void = { print($0) }) -> Self {
    StoreDebug(write: write)
  }

  @usableFromInline
  func describe<State, Action>(
    action: Action, before: State, after: State, refusal: Refusal?
  ) -> String {
    var text = "received action:\n"
    customDump(action, to: &text, indent: 2)
    text += "\n"
    if let refusal {
      text += "  (refused: \(refusal.reason))"
    } else if let difference = diff(before, after) {
      text += difference.split(separator: "\n", omittingEmptySubsequences: false)
        .map { "  " + $0 }.joined(separator: "\n")
    } else {
      text += "  (no state changes)"
    }
    return text
  }
}
