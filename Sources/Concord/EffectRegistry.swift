/// Everything an ``EffectRuntime`` knows about running effects, guarded by the runtime's lock.
///
/// A task is created outside the lock and registered afterwards, because creating a task
/// enqueues it (which may wake a thread) and an immediate task even runs before its creator gets
/// the lock back. A task that finishes before it is registered is remembered, so that it is
/// never registered at all. Tokens come from the runtime's atomic counter, in the order tasks
/// were started; a token may be *reserved* under the lock first, so that the task counts as
/// alive, and holds its place in a queue, while it is being created.
@usableFromInline
struct Registry {
  var tasks: [UInt64: Task<Void, Never>] = [:]
  /// The tasks of plain effects, kept apart; see ``PlainTasks``.
  @usableFromInline
  var plain = PlainTasks()
  var byID: [EffectID: [UInt64: Task<Void, Never>]] = [:]
  var queues: [EffectID: QueueLane] = [:]
  var starting: Set<UInt64> = []
  var finishedUnregistered: Set<UInt64> = []
  /// Tasks with a lower token were started before the last ``cancelAll(tokensTaken:)``.
  var cancelledBefore: UInt64 = 0

  /// What became of a task handed to ``register(_:token:ids:)``.
  @usableFromInline
  enum Registration {
    case registered
    /// It finished before it could be registered, and was not.
    case finished
    /// Registered, but ``cancelAll(tokensTaken:)`` ran while it was starting: cancel it now.
    case cancelled
  }

  @usableFromInline
  init() {}

  /// Tasks alive, counting those reserved and still being started.
  var liveCount: Int {
    tasks.count + plain.liveCount + starting.count
      - starting.intersection(finishedUnregistered).count
  }

  /// Marks `token` as a task being started: it counts as alive before it is registered.
  mutating func reserve(_ token: UInt64) {
    starting.insert(token)
  }

  /// Registers a task under its token, unless it already finished.
  @usableFromInline
  mutating func register(_ task: Task<Void, Never>, token: UInt64, ids: [EffectID]) -> Registration {
    if !starting.isEmpty { starting.remove(token) }
    if !finishedUnregistered.isEmpty, finishedUnregistered.remove(token) != nil { return .finished }
    tasks[token] = task
    for id in ids { byID[id, default: [:]][token] = task }
    return startedBeforeCancelAll(token) ? .cancelled : .registered
  }

  /// True when the task that took `token` was started before the last ``cancelAll(tokensTaken:)``
  /// and registered after it: it must be cancelled as it is registered.
  @usableFromInline
  func startedBeforeCancelAll(_ token: UInt64) -> Bool {
    token < cancelledBefore
  }

  /// Every registered task, to be cancelled; tasks still starting are cancelled as they register.
  /// The bookkeeping stays: each task unregisters itself, and frees its queue slot, as it ends.
  mutating func cancelAll(tokensTaken: UInt64) -> [Task<Void, Never>] {
    cancelledBefore = tokensTaken
    return Array(tasks.values) + plain.liveTasks
  }

  @usableFromInline
  mutating func finish(_ token: UInt64, ids: [EffectID]) {
    guard tasks.removeValue(forKey: token) != nil else {
      // Its creator has not registered it yet.
      finishedUnregistered.insert(token)
      return
    }
    for id in ids {
      byID[id]?[token] = nil
      if byID[id]?.isEmpty == true { byID[id] = nil }
    }
  }

  /// Forgets every task marked with `id`, returning them to be cancelled.
  mutating func removeTasks(for id: EffectID) -> [Task<Void, Never>] {
    byID.removeValue(forKey: id).map { Array($0.values) } ?? []
  }
}

/// One effect queue: who holds a slot, who waits, and how to wake the waiters.
struct QueueLane {
  var running: [UInt64] = []
  var waiting: [UInt64] = []
  var tasks: [UInt64: Task<Void, Never>] = [:]
  var continuations: [UInt64: CheckedContinuation<Bool, Never>] = [:]
  var capacity: Int
  /// Evicted by a newer effect before their task was enrolled: cancelled when it is.
  var evictedWhileStarting: Set<UInt64> = []

  var isIdle: Bool {
    running.isEmpty && waiting.isEmpty && tasks.isEmpty && evictedWhileStarting.isEmpty
  }

  func holds(_ token: UInt64) -> Bool {
    running.contains(token) || waiting.contains(token)
  }
}
