import ConcordLog
import Dispatch
import NIOCore

/// Appends batches to the log on a thread of its own, so the host never blocks the concurrency
/// pool on a disk write.
///
/// The host sends one batch at a time and collects whatever arrives meanwhile into the next:
/// that is the group commit, with no timer and no artificial delay.
final class GroupCommitter: Sendable {
  let log: ActionLog
  private let queue = DispatchQueue(label: "concordd.commit", qos: .userInitiated)

  init(log: ActionLog) {
    self.log = log
  }

  /// Appends `records` in one transaction on the commit thread, then calls `completion` on
  /// `eventLoop` once they are durable (or failed). A callback, not `async`: an awaited call
  /// would pass through the concurrency pool twice on every commit.
  func append(
    _ records: [LogRecord], thenOn eventLoop: any EventLoop,
    completion: @escaping @Sendable (Result<[Appended], LogError>) -> Void
  ) {
    queue.async { [log] in
      let result = Result { () throws(LogError) in try log.append(records) }
      eventLoop.execute { completion(result) }
    }
  }

  /// Runs `work` on the commit thread, after the batches before it.
  func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      queue.async { continuation.resume(with: Result { try work() }) }
    }
  }
}
