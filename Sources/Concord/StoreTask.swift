/// What became of one `send`: whether the action was refused, and the effects it started.
///
/// Await ``finish()`` to wait until those effects are done, or ``cancel()`` them. The effects
/// counted are those the action started, including the effects of actions it fed back
/// synchronously with ``Effect/send(_:)``; actions that an async effect sends later get their own
/// tasks.
///
/// ```swift
/// let task = await store.send(.refresh)
/// if let refusal = task.refusal { print("refused:", refusal) }
/// await task.finish()
/// ```
public struct StoreTask: Sendable {
  /// The effects the action started.
  public let effects: EffectHandle
  /// Why the action was refused, or `nil` when it was applied.
  public let refusal: Refusal?

  /// The outcome of one send; tests and stand-ins for a store build one directly.
  ///
  /// - Parameters:
  ///   - effects: the tasks the action started.
  ///   - refusal: why the action was refused, or `nil` when it was applied.
  @inlinable
  public init(effects: EffectHandle = EffectHandle(), refusal: Refusal? = nil) {
    self.effects = effects
    self.refusal = refusal
  }

  /// True when the reducer accepted the action.
  public var wasApplied: Bool { refusal == nil }

  /// Waits until every effect the action started has finished.
  ///
  /// Like `Task.value`, waiting does not own the effects: if the waiting task is cancelled, the
  /// effects go on. To stop them with the waiter, cancel them when it is cancelled:
  ///
  /// ```swift
  /// let task = await store.send(.refresh)
  /// await withTaskCancellationHandler { await task.finish() } onCancel: { task.cancel() }
  /// ```
  ///
  /// (That handler costs about 150 ns a wait, as much again as the rest of the store's work for
  /// an effect, so it is not paid by every caller.)
  @inlinable
  public func finish() async {
    await effects.finish()
  }

  /// Cancels every effect the action started.
  public func cancel() {
    effects.cancel()
  }

  /// True when the action's effects were cancelled.
  public var isCancelled: Bool { effects.isCancelled }
}
