/// Everything an ``EffectRuntime`` knows about running effects, guarded by the runtime's lock.
///
/// A task is registered in two steps, because it starts immediately and may finish before its
/// creator gets the lock back: a token is *reserved* first, then the task is *registered* under
/// it. A task that finishes in between is remembered, so that it is never registered at all.
@usableFromInline
struct Registry {
  var nextToken: UInt64 = 0
  var tasks: [UInt64: Task<Void, Never>] = [:]
  var byID: [EffectID: [UInt64: Task<Void, Never>]] = [:]
  var queues: [EffectID: QueueLane] = [:]
  var starting: Set<UInt64> = []
  var finishedWhileStarting: Set<UInt64> = []
  /// Tasks with a lower token were started before the last ``cancelAll()``.
  var cancelledBefore: UInt64 = 0

  /// What became of a task handed to ``register(_:token:ids:)``.
  @usableFromInline
  enum Registration {
    case registered
    /// It finished before it could be registered, and was not.
    case finished
    /// Registered, but ``cancelAll()`` ran while it was starting: cancel it now.
    case cancelled
  }

  @usableFromInline
  init() {}

  /// Tasks alive, counting those still being started.
  var liveCount: Int { tasks.count + starting.count - finishedWhileStarting.count }

  /// A token for a task that is registered in the same critical section as it is created.
  @usableFromInline
  mutating func takeToken() -> UInt64 {
    defer { nextToken &+= 1 }
    return nextToken
  }

  /// A token for a task that is created outside the lock and registered afterwards.
  @usableFromInline
  mutating func reserveToken() -> UInt64 {
    let token = takeToken()
    starting.insert(token)
    return token
  }

  @usableFromInline
  mutating func insert(_ task: Task<Void, Never>, token: UInt64, ids: [EffectID]) {
    tasks[token] = task
    for id in ids { byID[id, default: [:]][token] = task }
  }

  /// Registers a task under its reserved token, unless it already finished.
  @usableFromInline
  mutating func register(_ task: Task<Void, Never>, token: UInt64, ids: [EffectID]) -> Registration {
    starting.remove(token)
    if finishedWhileStarting.remove(token) != nil { return .finished }
    insert(task, token: token, ids: ids)
    return token < cancelledBefore ? .cancelled : .registered
  }

  /// Every registered task, to be cancelled; tasks still starting are cancelled as they register.
  /// The bookkeeping stays: each task unregisters itself, and frees its queue slot, as it ends.
  mutating func cancelAll() -> [Task<Void, Never>] {
    cancelledBefore = nextToken
    return Array(tasks.values)
  }

  mutating func finish(_ token: UInt64, ids: [EffectID]) {
    if !starting.isEmpty, starting.contains(token) {
      finishedWhileStarting.insert(token)
      return
    }
    tasks[token] = nil
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
