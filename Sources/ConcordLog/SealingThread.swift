import Dispatch
import Foundation
import Synchronization

/// The thread that seals long batches beside the writer, kept awake between batches while they
/// keep coming.
///
/// A sleeping thread takes tens of microseconds to wake on a small virtual machine, about as
/// long as sealing a dozen entries. Batches arrive one after another, each after the previous
/// commit's fsync, so after a batch the thread watches for the next one for a short while
/// (yielding the core to anyone else who needs it) before it sleeps.
///
/// ```swift
/// SealingThread.shared.run { pipeline.sealOnHelperThread() }
/// ```
final class SealingThread: Sendable {
  /// One thread for the process: a writer seals its own rows whenever the thread is busy.
  static let shared = SealingThread()

  /// How long the thread watches for the next batch before it sleeps: longer than a commit.
  static let watchAfterBatch: Duration = .milliseconds(2)

  private struct Queue {
    var work: [@Sendable () -> Void] = []
    var isAsleep = false
  }

  private let queue = Mutex(Queue())
  /// How many jobs wait: read while watching, without taking the lock.
  private let waiting = Atomic<Int>(0)
  private let wakeUp = DispatchSemaphore(value: 0)

  private init() {
    let thread = Thread { [self] in runLoop() }
    thread.name = "concord.sealing"
    thread.qualityOfService = .userInitiated
    thread.start()
  }

  /// Runs `work` on the sealing thread, after the jobs already given to it.
  func run(_ work: @escaping @Sendable () -> Void) {
    let wasAsleep = queue.withLock { queue in
      queue.work.append(work)
      waiting.add(1, ordering: .releasing)
      defer { queue.isAsleep = false }
      return queue.isAsleep
    }
    if wasAsleep { wakeUp.signal() }
  }

  private func runLoop() -> Never {
    let clock = ContinuousClock()
    while true {
      if let work = nextJob() {
        work()
        continue
      }
      let deadline = clock.now.advanced(by: Self.watchAfterBatch)
      while waiting.load(ordering: .acquiring) == 0, clock.now < deadline {
        sched_yield()
      }
      let sleeps = queue.withLock { queue in
        queue.isAsleep = queue.work.isEmpty
        return queue.isAsleep
      }
      if sleeps { wakeUp.wait() }
    }
  }

  private func nextJob() -> (@Sendable () -> Void)? {
    queue.withLock { queue in
      guard !queue.work.isEmpty else { return nil }
      waiting.subtract(1, ordering: .relaxed)
      return queue.work.removeFirst()
    }
  }
}
