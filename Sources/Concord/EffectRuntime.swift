import Synchronization

/// Runs the effects that reducers return: tasks, cancellation by id, and effect queues.
///
/// A ``Store`` owns one, and so will any host that decides for itself *when* effects start (the
/// daemon starts an action's effects only after the action is durable in its log). All the
/// bookkeeping sits behind one lock, so an effect that finishes does not need to hop back onto
/// its store to be forgotten.
///
/// ```swift
/// var feedback: [AppAction] = []
/// let handle = runtime.start(effect, feedback: &feedback)
/// // reduce `feedback` next, in order, before any other action
/// ```
public final class EffectRuntime<Action: Sendable>: Sendable {
  /// Where actions sent by running effects go. It is called on the effect's own task, so
  /// `Task.isCancelled` inside it tells whether that effect was cancelled.
  public typealias Delivery = @Sendable (Action) async -> Void

  private let clock: any Clock<Duration>
  @usableFromInline
  let diagnose: @Sendable (String) -> Void
  @usableFromInline
  let registry = Mutex(Registry())

  /// - Parameters:
  ///   - clock: the clock that queue delays wait on.
  ///   - diagnose: receives a line for each error an effect threw and did not handle.
  public init(
    clock: any Clock<Duration>,
    diagnose: @escaping @Sendable (String) -> Void
  ) {
    self.clock = clock
    self.diagnose = diagnose
  }

  /// How many effect tasks are alive: running, sleeping before they start, or waiting in a queue.
  public var runningCount: Int {
    registry.withLock { $0.tasks.count }
  }

  /// Starts `effect`. Actions it sends synchronously (``Effect/send(_:)``) are appended to
  /// `feedback` for the caller to reduce next; everything asynchronous starts as tasks, returned
  /// in the handle. Actions those tasks send go to `deliver`.
  @inlinable
  public func start(
    _ effect: Effect<Action>, feedback: inout [Action], deliver: @escaping Delivery
  ) -> EffectHandle {
    var handle = EffectHandle()
    // The common case, a lone operation, is inlinable so that it is specialized for the app.
    if case let .run(priority, work, handler) = effect.operation {
      handle.append(spawn(work, priority: priority, catch: handler, ids: [], deliver: deliver))
    } else {
      start(effect, ids: [], feedback: &feedback, handle: &handle, deliver: deliver)
    }
    return handle
  }

  /// Cancels every effect this runtime started.
  public func cancelAll() {
    let tasks = registry.withLock { registry in
      let tasks = Array(registry.tasks.values)
      registry = Registry()
      return tasks
    }
    tasks.forEach { $0.cancel() }
  }

  // MARK: - Interpreting effects

  @usableFromInline
  func start(
    _ effect: Effect<Action>, ids: [EffectID], feedback: inout [Action],
    handle: inout EffectHandle, deliver: @escaping Delivery
  ) {
    switch effect.operation {
    case .none, .refuse:
      return
    case let .send(action):
      feedback.append(action)
    case let .run(priority, work, handler):
      handle.append(spawn(work, priority: priority, catch: handler, ids: ids, deliver: deliver))
    case let .merge(effects):
      for effect in effects {
        start(effect, ids: ids, feedback: &feedback, handle: &handle, deliver: deliver)
      }
    case let .concatenate(effects):
      handle.append(
        spawn(ids: ids, priority: nil) { [self] in
          for effect in effects {
            if Task.isCancelled { return }
            await perform(effect, ids: ids, deliver: deliver)
          }
        })
    case let .cancellable(id, cancelInFlight, effect):
      if cancelInFlight { cancel([id]) }
      start(effect, ids: ids + [id], feedback: &feedback, handle: &handle, deliver: deliver)
    case let .cancel(cancelled):
      cancel(cancelled)
    case let .queued(queue, effect):
      if let task = startQueued(effect, in: queue, ids: ids, deliver: deliver) {
        handle.append(task)
      }
    }
  }

  /// Runs an effect to its end from inside a task: synchronous sends are delivered in order,
  /// then every task it started is awaited. Cancelling the caller cancels them.
  private func perform(_ effect: Effect<Action>, ids: [EffectID], deliver: @escaping Delivery) async {
    // A lone operation runs on the caller's task: one task per queued effect, not two.
    if case let .run(_, work, handler) = effect.operation {
      await execute(work, catch: handler, deliver: deliver)
      return
    }
    var feedback: [Action] = []
    var handle = EffectHandle()
    start(effect, ids: ids, feedback: &feedback, handle: &handle, deliver: deliver)
    for action in feedback {
      if Task.isCancelled { break }
      await deliver(action)
    }
    await handle.finish()
  }

  @inlinable
  func execute(
    _ work: @Sendable (Send<Action>) async throws -> Void,
    catch handler: Effect<Action>.ErrorHandler?,
    deliver: @escaping Delivery
  ) async {
    let send = Send(deliver)
    do {
      try await work(send)
    } catch is CancellationError {
    } catch {
      await failed(with: error, handler: handler, send: send)
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

  /// Starts an operation as a registered task.
  @inlinable
  func spawn(
    _ work: @escaping @Sendable (Send<Action>) async throws -> Void,
    priority: TaskPriority?,
    catch handler: Effect<Action>.ErrorHandler?,
    ids: [EffectID],
    deliver: @escaping Delivery
  ) -> Task<Void, Never> {
    registry.withLock { registry in
      let token = registry.takeToken()
      // Created under the lock, so it cannot finish (and unregister) before it is registered.
      let task = Task(priority: priority) { [self] in
        await execute(work, catch: handler, deliver: deliver)
        finished(token, ids: ids)
      }
      registry.register(task, token: token, ids: ids)
      return task
    }
  }

  // MARK: - Tasks and cancellation

  private func spawn(
    ids: [EffectID],
    priority: TaskPriority?,
    body: @escaping @Sendable () async -> Void
  ) -> Task<Void, Never> {
    registry.withLock { registry in
      spawnLocked(&registry, ids: ids, priority: priority, body: body) { _, _ in }
    }
  }

  @usableFromInline
  func finished(_ token: UInt64, ids: [EffectID]) {
    registry.withLock { registry in
      registry.tasks[token] = nil
      for id in ids {
        registry.byID[id]?[token] = nil
        if registry.byID[id]?.isEmpty == true { registry.byID[id] = nil }
      }
    }
  }

  private func cancel(_ ids: [EffectID]) {
    let tasks = registry.withLock { registry in
      ids.flatMap { registry.byID.removeValue(forKey: $0)?.values.map { $0 } ?? [] }
    }
    // Outside the lock: cancellation handlers may need it.
    tasks.forEach { $0.cancel() }
  }

  // MARK: - Queues

  private func startQueued(
    _ effect: Effect<Action>, in queue: EffectQueue, ids: [EffectID], deliver: @escaping Delivery
  ) -> Task<Void, Never>? {
    var admission = Admission.discarded
    var evicted: Task<Void, Never>?
    let queueID = queue.id
    let delay = queue.delay
    let clock = self.clock
    let task = registry.withLock { registry -> Task<Void, Never>? in
      var lane = registry.queues[queueID] ?? QueueLane(capacity: queue.policy.maxCount)
      defer { registry.queues[queueID] = lane.isIdle ? nil : lane }
      let token = registry.nextToken
      if lane.running.count < queue.policy.maxCount {
        admission = .admitted
      } else {
        switch queue.policy {
        case .newest:
          let oldest = lane.running.removeFirst()
          evicted = lane.tasks.removeValue(forKey: oldest)
          admission = .admitted
        case .oldestDiscardingNew:
          return nil
        case .oldestSuspendingNew:
          admission = .waiting
        }
      }
      if admission == .admitted { lane.running.append(token) } else { lane.waiting.append(token) }
      let mustWait = admission == .waiting
      return spawnLocked(&registry, ids: ids, priority: nil) { [self] in
        defer { release(token, from: queueID) }
        if mustWait, await !waitForSlot(token, in: queueID) { return }
        if delay > .zero {
          do { try await clock.sleep(for: delay) } catch { return }
        }
        if Task.isCancelled { return }
        await perform(effect, ids: ids, deliver: deliver)
      } register: { lane.tasks[$0] = $1 }
    }
    evicted?.cancel()
    return task
  }

  /// Starts a task and registers it, for callers that already hold the lock. The task is created
  /// under the lock, so it cannot finish (and unregister) before it is registered.
  private func spawnLocked(
    _ registry: inout Registry,
    ids: [EffectID],
    priority: TaskPriority?,
    body: @escaping @Sendable () async -> Void,
    register: (UInt64, Task<Void, Never>) -> Void
  ) -> Task<Void, Never> {
    let token = registry.takeToken()
    let task = Task(priority: priority) { [self] in
      await body()
      finished(token, ids: ids)
    }
    registry.register(task, token: token, ids: ids)
    register(token, task)
    return task
  }

  /// Suspends until the queue gives `token` a slot. Returns false when the task was cancelled
  /// while it waited.
  private func waitForSlot(_ token: UInt64, in queueID: EffectID) async -> Bool {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let answer = registry.withLock { registry -> Bool? in
          guard var lane = registry.queues[queueID] else { return false }
          if lane.running.contains(token) { return true }
          guard lane.waiting.contains(token) else { return false }
          lane.continuations[token] = continuation
          registry.queues[queueID] = lane
          return nil
        }
        if let answer { continuation.resume(returning: answer) }
      }
    } onCancel: {
      let continuation = registry.withLock { registry -> CheckedContinuation<Bool, Never>? in
        guard var lane = registry.queues[queueID] else { return nil }
        lane.waiting.removeAll { $0 == token }
        let continuation = lane.continuations.removeValue(forKey: token)
        registry.queues[queueID] = lane.isIdle ? nil : lane
        return continuation
      }
      continuation?.resume(returning: false)
    }
  }

  /// Frees `token`'s slot (or place in line) and admits whoever waits next.
  private func release(_ token: UInt64, from queueID: EffectID) {
    let admitted = registry.withLock { registry -> [CheckedContinuation<Bool, Never>] in
      guard var lane = registry.queues[queueID] else { return [] }
      lane.running.removeAll { $0 == token }
      lane.waiting.removeAll { $0 == token }
      lane.tasks[token] = nil
      var admitted: [CheckedContinuation<Bool, Never>] = []
      while lane.running.count < lane.capacity, !lane.waiting.isEmpty {
        let next = lane.waiting.removeFirst()
        lane.running.append(next)
        if let continuation = lane.continuations.removeValue(forKey: next) {
          admitted.append(continuation)
        }
      }
      registry.queues[queueID] = lane.isIdle ? nil : lane
      return admitted
    }
    admitted.forEach { $0.resume(returning: true) }
  }
}

private enum Admission {
  case admitted, waiting, discarded
}

/// Everything the runtime knows about running effects, guarded by one lock.
@usableFromInline
struct Registry {
  var nextToken: UInt64 = 0
  var tasks: [UInt64: Task<Void, Never>] = [:]
  var byID: [EffectID: [UInt64: Task<Void, Never>]] = [:]
  var queues: [EffectID: QueueLane] = [:]

  @usableFromInline
  init() {}

  @usableFromInline
  mutating func takeToken() -> UInt64 {
    defer { nextToken &+= 1 }
    return nextToken
  }

  @usableFromInline
  mutating func register(_ task: Task<Void, Never>, token: UInt64, ids: [EffectID]) {
    tasks[token] = task
    for id in ids { byID[id, default: [:]][token] = task }
  }
}

/// One effect queue: who holds a slot, who waits, and how to wake the waiters.
struct QueueLane {
  var running: [UInt64] = []
  var waiting: [UInt64] = []
  var tasks: [UInt64: Task<Void, Never>] = [:]
  var continuations: [UInt64: CheckedContinuation<Bool, Never>] = [:]
  var capacity: Int

  var isIdle: Bool { running.isEmpty && waiting.isEmpty && tasks.isEmpty }
}
