/// Feeds actions from a running effect back into its store.
///
/// An ``Effect/run(priority:operation:catch:)`` operation receives a `Send` and calls it like a
/// function. Once the effect has been cancelled, sends are dropped: an effect cancelled by
/// ``Effect/cancel(id:)`` never delivers an action after the cancellation was reduced.
///
/// ```swift
/// return .run { send in
///   let user = try await environment.api.fetchUser(id)
///   await send(.userLoaded(user))
/// }
/// ```
public struct Send<Action: Sendable>: Sendable {
  @usableFromInline
  let deliver: @Sendable (Action) async -> Void

  /// Makes a `Send` that hands each action to `deliver`.
  @inlinable
  public init(_ deliver: @escaping @Sendable (Action) async -> Void) {
    self.deliver = deliver
  }

  /// Sends an action back into the store, unless the effect has been cancelled.
  @inlinable
  public func callAsFunction(_ action: Action) async {
    guard !Task.isCancelled else { return }
    await deliver(action)
  }

  /// A `Send` of child actions that embeds each one in this store's actions.
  func map<ChildAction: Sendable>(
    _ embed: @escaping @Sendable (ChildAction) -> Action
  ) -> Send<ChildAction> {
    let deliver = self.deliver
    return Send<ChildAction> { await deliver(embed($0)) }
  }
}
