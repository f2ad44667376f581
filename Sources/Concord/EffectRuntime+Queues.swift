extension EffectRuntime {
  /// Admits `effect` to `queue` under the queue's policy, or drops it.
  func startQueued(
    _ effect: Effect<Action>, in queue: EffectQueue, ids: [EffectID], deliver: @escaping Delivery
  ) -> Task<Void, Never>? {
    let queueID = queue.id
    let admission = registry.withLock { registry -> (token: UInt64, mustWait: Bool, evicted: Task<Void, Never>?)? in
      var lane = registry.queues[queueID] ?? QueueLane(capacity: queue.policy.maxCount)
      var evicted: Task<Void, Never>?
      var mustWait = false
      if lane.running.count >= lane.capacity {
        switch queue.policy {
        case .newest:
          let oldest = lane.running.removeFirst()
          evicted = lane.tasks.removeValue(forKey: oldest)
          if evicted == nil { lane.evictedWhileStarting.insert(oldest) }
        case .oldestDiscardingNew:
          return nil
        case .oldestSuspendingNew:
          mustWait = true
        }
      }
      // Reserved, so that it counts as alive and holds its place before its task exists.
      let token = takeToken()
      registry.reserve(token)
      if mustWait { lane.waiting.append(token) } else { lane.running.append(token) }
      registry.queues[queueID] = lane
      return (token, mustWait, evicted)
    }
    guard let admission else { return nil }
    // Outside the lock: cancellation handlers may need it.
    admission.evicted?.cancel()
    let token = admission.token
    let delay = queue.delay
    let clock = self.clock
    // Registered under the ids inside too, so that cancelling one of them cancels the effect
    // while it waits for a slot or sleeps through the delay.
    return launch(token: token, ids: ids + effect.innerCancellableIDs.map(\.enclosing)) { [self] in
      defer { release(token, from: queueID) }
      if admission.mustWait, await !waitForSlot(token, in: queueID) { return }
      if delay > .zero {
        do { try await clock.sleep(for: delay) } catch { return }
      }
      if Task.isCancelled { return }
      await perform(effect, ids: ids, deliver: deliver)
    } enroll: { registry, task in
      guard var lane = registry.queues[queueID] else { return false }
      defer { registry.queues[queueID] = lane.isIdle ? nil : lane }
      if lane.evictedWhileStarting.remove(token) != nil { return true }
      // Remembered so that a newer effect can evict it, unless it already left the queue.
      if lane.holds(token) { lane.tasks[token] = task }
      return false
    }
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
