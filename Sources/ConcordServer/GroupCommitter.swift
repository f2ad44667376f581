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
  /// Long work that only ends in a write (sealing a snapshot): done here, so the commits queued
  /// meanwhile do not wait for it.
  private let beside = DispatchQueue(label: "concordd.beside-commits", qos: .utility)

  init(log: ActionLog) {
    self.log = log
  }

  /// Appends `records` in one transaction on the commit thread, then calls `completion` on
  /// `eventLoop` once they are durable (or failed).
  func append(
    _ records: [LogRecord], thenOn eventLoop: any EventLoop,
    completion: @escaping @Sendable (Result<[Appended], LogError>) -> Void
  ) {
    run({ [log] () throws(LogError) in try log.append(records) }, thenOn: eventLoop, completion: completion)
  }

  /// Runs `work` on the commit thread, after the batches before it, then `completion` on
  /// `eventLoop`. A callback, not `async`: an awaited call would pass through the concurrency
  /// pool twice on every commit.
  func run<T: Sendable>(
    _ work: @escaping @Sendable () throws(LogError) -> T, thenOn eventLoop: any EventLoop,
    completion: @escaping @Sendable (Result<T, LogError>) -> Void
  ) {
    queue.async {
      let result = Result { () throws(LogError) in try work() }
      eventLoop.execute { completion(result) }
    }
  }

  /// Runs `prepare` on a thread beside the commit thread, then `work` with what it made on the
  /// commit thread (after the batches queued meanwhile), then `completion` on `eventLoop`.
  ///
  /// ```swift
  /// committer.run(preparing: { try log.sealSnapshot(state, at: seq, by: version) },
  ///               then: { try log.store($0) }, thenOn: eventLoop) { result in … }
  /// ```
  func run<Prepared: Sendable, T: Sendable>(
    preparing prepare: @escaping @Sendable () throws(LogError) -> Prepared,
    then work: @escaping @Sendable (Prepared) throws(LogError) -> T, thenOn eventLoop: any EventLoop,
    completion: @escaping @Sendable (Result<T, LogError>) -> Void
  ) {
    beside.async { [self] in
      switch Result(catching: { () throws(LogError) in try prepare() }) {
      case let .success(prepared): run({ () throws(LogError) in try work(prepared) }, thenOn: eventLoop, completion: completion)
      case let .failure(error): eventLoop.execute { completion(.failure(error)) }
      }
    }
  }
}
