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
  ///
  /// `deliver` runs on the effect's own task. The runtime's deliveries (a store's, a host's)
  /// check `Task.isCancelled` there, where the action reaches the store, and drop the actions of
  /// a cancelled effect; one made by hand should do the same.
  @inlinable
  public init(_ deliver: @escaping @Sendable (Action) async -> Void) {
    self.deliver = deliver
  }

  /// Sends an action back into the store, unless the effect has been cancelled.
  // The check is the delivery's, made once on the store: checking here as well cost a second
  // look at the task's status for every action.
  @inlinable
  public func callAsFunction(_ action: Action) async {
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
