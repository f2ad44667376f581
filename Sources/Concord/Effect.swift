/// Work a reducer asks the runtime to do, kept as data until the runtime runs it.
///
/// Reducers stay pure: they describe effects and return them. The store (or the daemon) decides
/// when to start them, which is how the daemon can commit an action to its log before any of the
/// action's effects begin, and replay a log without running effects at all.
///
/// ```swift
/// case .saveTapped:
///   return .run { [count = state.count] send in
///     try await environment.save(count)
///     await send(.saved)
///   }
///   .cancellable(id: "save", cancelInFlight: true)
/// ```
///
/// `.none` costs nothing: a store that receives `.none` starts no task and allocates nothing.
public struct Effect<Action: Sendable>: Sendable {
  /// A failure handler for ``run(priority:operation:catch:)``.
  public typealias ErrorHandler = @Sendable (any Error, Send<Action>) async -> Void

  /// Every case with a payload is boxed (`indirect`), so an `Operation` is one pointer whatever
  /// the action type: `.none` (no box) passes through every level of composition as a null word,
  /// and copying or destroying any operation is a retain or a release, with no runtime metadata
  /// (a generic class holding the enum needed its metadata looked up to free it).
  @usableFromInline
  indirect enum Operation: Sendable {
    case none
    case send(Action)
    case refuse(Refusal)
    /// The priority is kept as `TaskPriority.rawValue`: `TaskPriority` is a resilient type, and an
    /// `Operation` holding one would be address-only, copied and matched through runtime
    /// metadata every time an effect passes through the store.
    case run(
      UInt8?,
      @Sendable (Send<Action>) async throws -> Void,
      ErrorHandler?
    )
    case merge([Effect])
    case concatenate([Effect])
    case cancellable(EffectID, cancelInFlight: Bool, Effect)
    case cancel([EffectID])
    case queued(EffectQueue, Effect)
  }

  @usableFromInline
  let operation: Operation

  @inlinable
  init(_ operation: Operation) {
    self.operation = operation
  }

  /// True when there is nothing to run. The store's fast path checks this first.
  @inlinable
  public var isNone: Bool {
    if case .none = operation { return true }
    return false
  }

  /// The reason the reduction was refused, when it was.
  @inlinable
  public var refusal: Refusal? {
    guard case let .refuse(refusal) = operation else { return nil }
    return refusal
  }
}

// MARK: - Building effects

extension Effect {
  /// An effect that does nothing.
  @inlinable
  public static var none: Effect { Effect(.none) }

  /// Sends an action back into the store right after the current reduction, before any other
  /// action is reduced. It does not start a task. (Inside `.concatenate` or a queue, which run as
  /// tasks, it is sent when its turn comes, like an action from ``run(priority:operation:catch:)``.)
  @inlinable
  public static func send(_ action: Action) -> Effect {
    Effect(.send(action))
  }

  /// Refuses the action being reduced. The store leaves its state as it was before the action,
  /// drops every effect of this reduction, and reports `reason` to the sender.
  @inlinable
  public static func refuse(_ reason: Refusal) -> Effect {
    Effect(.refuse(reason))
  }

  /// Runs an async operation that may send any number of actions.
  ///
  /// A `CancellationError` ends the effect quietly. Any other error goes to `handler`, or, when
  /// there is none, to the store's diagnostics.
  @inlinable
  public static func run(
    priority: TaskPriority?,
    operation: @escaping @Sendable (Send<Action>) async throws -> Void,
    catch handler: ErrorHandler? = nil
  ) -> Effect {
    Effect(.run(priority?.rawValue, operation, handler))
  }

  /// Runs an async operation that may send any number of actions, at the priority of the task
  /// that sent the action; see ``run(priority:operation:catch:)``.
  // A separate overload rather than a `nil` default: a default `TaskPriority?` is built through
  // runtime metadata (the type is resilient) in every reducer that returns an effect.
  @inlinable
  public static func run(
    operation: @escaping @Sendable (Send<Action>) async throws -> Void,
    catch handler: ErrorHandler? = nil
  ) -> Effect {
    Effect(.run(nil, operation, handler))
  }

  /// Runs an async operation that sends nothing back.
  public static func fireAndForget(
    priority: TaskPriority? = nil,
    _ work: @escaping @Sendable () async throws -> Void
  ) -> Effect {
    Effect(.run(priority?.rawValue, { _ in try await work() }, nil))
  }

  /// Runs several effects at once. A refusal among them refuses the whole reduction.
  public static func merge(_ effects: Effect...) -> Effect {
    merge(effects)
  }

  /// Runs several effects at once. A refusal among them refuses the whole reduction.
  public static func merge(_ effects: some Sequence<Effect>) -> Effect {
    var kept: [Effect] = []
    for effect in effects {
      switch effect.operation {
      case .none: continue
      case .refuse: return effect
      case let .merge(inner): kept.append(contentsOf: inner)
      default: kept.append(effect)
      }
    }
    switch kept.count {
    case 0: return .none
    case 1: return kept[0]
    default: return Effect(.merge(kept))
    }
  }

  /// Runs effects one after another: each starts when the previous one has finished.
  public static func concatenate(_ effects: Effect...) -> Effect {
    concatenate(effects)
  }

  /// Runs effects one after another: each starts when the previous one has finished.
  public static func concatenate(_ effects: some Sequence<Effect>) -> Effect {
    var kept: [Effect] = []
    for effect in effects {
      switch effect.operation {
      case .none: continue
      case .refuse: return effect
      default: kept.append(effect)
      }
    }
    switch kept.count {
    case 0: return .none
    case 1: return kept[0]
    default: return Effect(.concatenate(kept))
    }
  }

  /// This effect and `other`, run at once.
  public func merge(with other: Effect) -> Effect {
    .merge(self, other)
  }

  /// This effect, then `other` once it has finished.
  public func concatenate(with other: Effect) -> Effect {
    .concatenate(self, other)
  }
}
