import ConcordLog
import Dispatch

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

  /// Appends `records` in one transaction; returns when they are durable.
  func append(_ records: [LogRecord]) async throws -> [Appended] {
    try await run { [log] in try log.append(records) }
  }

  /// Runs `work` on the commit thread, after the batches before it.
  func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      queue.async { continuation.resume(with: Result { try work() }) }
    }
  }
}
