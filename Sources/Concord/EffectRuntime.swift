import Synchronization

/// When the task of an effect begins to run.
public enum EffectStart: Sendable, Equatable {
  /// On the concurrency pool, like any new task: the store's thread goes straight on. The default,
  /// and the fastest for effects that send actions back.
  case enqueued
  /// At once, on the thread that reduced the action, until the effect's first suspension — so
  /// when `send` returns, the effect has begun (for example, its sleep is registered with a test
  /// clock). `TestStore` uses it, which makes clock-driven tests deterministic. The work before an
  /// effect's first `await` runs while the store waits. It needs `Task.immediate` (the Swift 6.2
  /// runtime: always on Linux, macOS 26 and later on Apple platforms); elsewhere effects are
  /// enqueued.
  case immediate
}

/// Runs the effects that reducers return: tasks, cancellation by id, and effect queues.
///
/// A ``Store`` owns one, and so does the daemon's host, which decides for itself *when* effects
/// start (only after the action is durable in its log; see ``cancelAhead(_:)``). All the
/// bookkeeping sits behind one lock, so an effect that finishes does not need to hop back onto
/// its store to be forgotten.
///
/// ```swift
/// let step = Reduction.reduce(action, into: &state, reduce: reducer)
/// // reduce `step.feedback` next, in order, before any other action; then, when it is time:
/// let handle = runtime.start(step.work, deliver: { await host.receive($0) })
/// ```
public final class EffectRuntime<Action: Sendable>: Sendable {
  /// Where actions sent by running effects go. It is called on the effect's own task, so
  /// `Task.isCancelled` inside it tells whether that effect was cancelled.
  public typealias Delivery = @Sendable (Action) async -> Void

  let clock: any Clock<Duration>
  @usableFromInline
  let startsImmediately: Bool
  @usableFromInline
  let diagnose: @Sendable (String) -> Void
  @usableFromInline
  let registry = Mutex(Registry())
  /// The next task's token. Atomic, so that a task can be given its token and created without
  /// holding the lock: creating a task may wake a thread, and the effect it wakes will want the
  /// lock to unregister.
  @usableFromInline
  let tokens = Atomic<UInt64>(0)

  /// - Parameters:
  ///   - clock: the clock that queue delays wait on.
  ///   - start: when an effect's task begins to run.
  ///   - diagnose: receives a line for each error an effect threw and did not handle.
  public init(
    clock: any Clock<Duration>,
    start: EffectStart = .enqueued,
    diagnose: @escaping @Sendable (String) -> Void
  ) {
    self.clock = clock
    self.startsImmediately = start == .immediate
    self.diagnose = diagnose
  }

  /// How many effect tasks are alive: running, sleeping before they start, or waiting in a queue.
  public var runningCount: Int {
    registry.withLock { $0.liveCount }
  }

  /// Starts `work`: the ``Reduction/work`` of a reduction, whose synchronous sends were taken out
  /// as its feedback. Everything in it starts as tasks, returned in the handle; actions those
  /// tasks send go to `deliver`. (A synchronous send still in `work` is delivered by a task of
  /// its own, like an action from ``Effect/run(priority:operation:catch:)``.)
  @inlinable
  public func start(_ work: Effect<Action>, deliver: @escaping Delivery) -> EffectHandle {
    startEffect(work, on: self, deliver: deliver)
  }

  /// Cancels at once what starting `work` will cancel (its `.cancel(id:)`s, and the ids it
  /// cancels in flight), for a host that reduces an action now and starts its work later: no
  /// effect it cancels delivers an action in between. Starting `work` cancels them again, which
  /// reaches effects started in the meantime.
  public func cancelAhead(_ work: Effect<Action>) {
    var ids: [EffectID] = []
    work.cancelledIDs(into: &ids)
    if !ids.isEmpty { cancel(ids) }
  }

  /// Cancels every effect this runtime started.
  public func cancelAll() {
    let tasks = registry.withLock { $0.cancelAll(tokensTaken: tokens.load(ordering: .sequentiallyConsistent)) }
    // Outside the lock: cancellation handlers may need it. Each task then unregisters itself.
    tasks.forEach { $0.cancel() }
  }

  // MARK: - Interpreting effects

  @usableFromInline
  func start(
    _ effect: Effect<Action>, ids: [EffectID], sends: inout [Action],
    handle: inout EffectHandle, deliver: @escaping Delivery
  ) {
    switch effect.operation {
    case .none, .refuse:
      return
    case let .send(action):
      sends.append(action)
    case let .run(priority, work, handler):
      handle.append(
        spawnOperation(work, priority: priority, catch: handler, ids: ids, on: self, deliver: deliver))
    case let .merge(effects):
      for effect in effects {
        start(effect, ids: ids, sends: &sends, handle: &handle, deliver: deliver)
      }
    case let .concatenate(effects):
      let token = takeToken()
      // Registered under the ids inside too, so that cancelling one of them stops the chain
      // before that part has even started.
      handle.append(
        launch(token: token, ids: ids + effect.innerCancellableIDs.map(\.enclosing)) { [self] in
          for effect in effects {
            if Task.isCancelled { return }
            await perform(effect, ids: ids, deliver: deliver)
          }
        })
    case let .cancellable(id, cancelInFlight, effect):
      if cancelInFlight { cancel([id]) }
      start(effect, ids: ids + [id], sends: &sends, handle: &handle, deliver: deliver)
    case let .cancel(cancelled):
      cancel(EffectID.cancelledBy(cancelled))
    case let .queued(queue, effect):
      if let task = startQueued(effect, in: queue, ids: ids, deliver: deliver) {
        handle.append(task)
      }
    }
  }

  /// Runs an effect to its end from inside a task: synchronous sends are delivered in order,
  /// then every task it started is awaited. Cancelling the caller cancels them.
  func perform(_ effect: Effect<Action>, ids: [EffectID], deliver: @escaping Delivery) async {
    // A lone operation runs on the caller's task: one task per queued effect, not two.
    if case let .run(_, work, handler) = effect.operation {
      await execute(work, catch: handler, on: self, deliver: deliver)
      return
    }
    var taken: [Action] = []
    var started = EffectHandle()
    start(effect, ids: ids, sends: &taken, handle: &started, deliver: deliver)
    let handle = started
    let sends = taken
    // Cancelling this task cancels what it started, also while it is still delivering sends.
    await withTaskCancellationHandler {
      for action in sends {
        if Task.isCancelled { break }
        await deliver(action)
      }
      await handle.finish()
    } onCancel: {
      handle.cancel()
    }
  }

  /// Delivers `sends` in order from a task of their own.
  @usableFromInline
  func deliverLater(_ sends: [Action], deliver: @escaping Delivery) -> Task<Void, Never> {
    launch(token: takeToken(), ids: []) {
      for action in sends {
        if Task.isCancelled { return }
        await deliver(action)
      }
    }
  }

  @usableFromInline
  func failed(with error: any Error, handler: Effect<Action>.ErrorHandler?, send: Send<Action>) async {
    if let handler {
      await handler(error, send)
    } else {
      diagnose("An effect failed and has no error handler: \(error)")
    }
  }

  @usableFromInline
  func makeTask(
    priority: UInt8?, _ operation: @escaping @Sendable () async -> Void
  ) -> Task<Void, Never> {
    let priority = priority.map(TaskPriority.init(rawValue:))
    if startsImmediately, #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
      return Task.immediate(priority: priority, operation: operation)
    }
    return Task(priority: priority, operation: operation)
  }

  /// A token for a new task, in the order tasks are started.
  @usableFromInline
  func takeToken() -> UInt64 {
    tokens.wrappingAdd(1, ordering: .relaxed).oldValue
  }

  /// Starts `body` as a registered task under `token`. The task is created outside the lock (an
  /// immediate task may even run, and finish, before `launch` returns) and registered afterwards.
  /// `enroll` runs under the lock once the task exists, unless it has already finished; it
  /// returns true when the task must be cancelled at once.
  @usableFromInline
  func launch(
    token: UInt64,
    ids: [EffectID],
    priority: UInt8? = nil,
    body: @escaping @Sendable () async -> Void,
    enroll: (inout Registry, Task<Void, Never>) -> Bool = { _, _ in false }
  ) -> Task<Void, Never> {
    let operation: @Sendable () async -> Void = { [self] in
      await body()
      finished(token, ids: ids)
    }
    let task = makeTask(priority: priority, operation)
    let cancelNow = registry.withLock { registry in
      switch registry.register(task, token: token, ids: ids) {
      case .finished: return false
      case .cancelled: return true
      case .registered: return enroll(&registry, task)
      }
    }
    if cancelNow { task.cancel() }
    return task
  }

  /// Registers a task made outside the lock; see ``launch(token:ids:priority:body:enroll:)``.
  @usableFromInline
  func register(_ task: Task<Void, Never>, token: UInt64, ids: [EffectID]) {
    let cancelNow = registry.withLock { $0.register(task, token: token, ids: ids) == .cancelled }
    if cancelNow { task.cancel() }
  }

  @usableFromInline
  func finished(_ token: UInt64, ids: [EffectID]) {
    registry.withLock { $0.finish(token, ids: ids) }
  }

  func cancel(_ ids: [EffectID]) {
    let tasks = registry.withLock { registry in
      ids.flatMap { registry.removeTasks(for: $0) }
    }
    // Outside the lock: cancellation handlers may need it.
    tasks.forEach { $0.cancel() }
  }
}

// The path of a lone `.run` effect, as free functions: called from code compiled for the app's own
// types (the store's `process` closure), they are specialized too, where methods of the generic
// runtime class would not be.

/// Starts `work` on `runtime`; see ``EffectRuntime/start(_:deliver:)``.
@inlinable
func startEffect<Action: Sendable>(
  _ work: Effect<Action>, on runtime: EffectRuntime<Action>, deliver: @escaping EffectRuntime<Action>.Delivery
) -> EffectHandle {
  var handle = EffectHandle()
  if case let .run(priority, operation, handler) = work.operation {
    handle.append(
      spawnOperation(operation, priority: priority, catch: handler, ids: [], on: runtime, deliver: deliver))
  } else {
    var sends: [Action] = []
    runtime.start(work, ids: [], sends: &sends, handle: &handle, deliver: deliver)
    if !sends.isEmpty { handle.append(runtime.deliverLater(sends, deliver: deliver)) }
  }
  return handle
}

/// Starts an operation as a registered task (see ``EffectStart`` for when it begins to run).
@inlinable
func spawnOperation<Action: Sendable>(
  _ work: @escaping @Sendable (Send<Action>) async throws -> Void,
  priority: UInt8?,
  catch handler: Effect<Action>.ErrorHandler?,
  ids: [EffectID],
  on runtime: EffectRuntime<Action>,
  deliver: @escaping EffectRuntime<Action>.Delivery
) -> Task<Void, Never> {
  let priority = priority.map(TaskPriority.init(rawValue:))
  if ids.isEmpty {
    // A plain effect, the commonest: it takes no lock when it ends (see `PlainTasks`).
    let effect = PlainEffect(work, catch: handler, on: runtime, deliver: deliver)
    if runtime.startsImmediately, #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
      // Made outside the lock: the effect runs here until it first suspends, and may ask the
      // runtime for its count. A `cancelAll` meanwhile is caught by its token, as for any task
      // registered after it is made.
      let token = runtime.takeToken()
      let task = Task.immediate(priority: priority) {
        await effect.run()
      }
      let cancelNow = runtime.registry.withLock { registry in
        registry.plain.dropEnded()
        registry.plain.append(task, ticket: effect)
        return registry.startedBeforeCancelAll(token)
      }
      if cancelNow { task.cancel() }
      return task
    }
    // Made under the lock, after ended effects are dropped, so that freeing them does not delay
    // this thread's return to the pool while the new task waits in it.
    return runtime.registry.withLock { registry in
      registry.plain.dropEnded()
      let task = Task(priority: priority) {
        await effect.run()
      }
      registry.plain.append(task, ticket: effect)
      return task
    }
  }
  // An effect with an id: `launch`, without its second closure and the thunk that passing a
  // closure to `Task` through a parameter adds, which saves an allocation.
  let token = runtime.takeToken()
  let task: Task<Void, Never>
  if runtime.startsImmediately, #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
    task = Task.immediate(priority: priority) {
      await execute(work, catch: handler, on: runtime, deliver: deliver)
      runtime.finished(token, ids: ids)
    }
  } else {
    task = Task(priority: priority) {
      await execute(work, catch: handler, on: runtime, deliver: deliver)
      runtime.finished(token, ids: ids)
    }
  }
  runtime.register(task, token: token, ids: ids)
  return task
}

/// Runs an operation on the current task, sending its actions to `deliver`.
@inlinable
func execute<Action: Sendable>(
  _ work: @Sendable (Send<Action>) async throws -> Void,
  catch handler: Effect<Action>.ErrorHandler?,
  on runtime: EffectRuntime<Action>,
  deliver: @escaping EffectRuntime<Action>.Delivery
) async {
  let send = Send(deliver)
  do {
    try await work(send)
  } catch is CancellationError {
  } catch {
    await runtime.failed(with: error, handler: handler, send: send)
  }
}
