/// The plain-Swift baselines the store is measured against, in the same run.

/// A plain actor with a counter: the cost of one actor call.
actor PlainCounter {
  private(set) var count = 0

  func increment() {
    count += 1
  }
}

/// A plain actor that spawns one task per call, and the task calls back into the actor: the cost
/// of an actor call plus a task, the least an async effect that feeds an action back can cost.
/// The task is detached, like an effect's: it runs off the actor and hops back onto it.
actor TaskSpawningCounter {
  private(set) var count = 0

  func incrementLater() -> Task<Void, Never> {
    Task.detached { await self.increment() }
  }

  func increment() {
    count += 1
  }
}

/// The same shape as the store's async feedback, built by hand: the actor spawns a task, the task
/// sends one action back through a weakly held reference, and the caller awaits the task while
/// staying able to cancel it.
actor HandRolledFeedback {
  private(set) var count = 0

  func ping() -> Task<Void, Never> {
    let deliver: @Sendable () async -> Void = { [weak self] in await self?.pong() }
    return Task { await deliver() }
  }

  func pong() {
    count += 1
  }
}
