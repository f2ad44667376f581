import Testing
import ConcordLog
import Synchronization

@testable import ConcordServer

extension DaemonHost {
  /// The committed seq and state, read together.
  var committedNow: (seq: Int64, state: State) { (committedSeq, committedState) }

  /// The highest cseq of each client, and the last one the daemon gave its own actions.
  var cseqs: (clients: [String: Int64], daemon: Int64) { (clients.mapValues(\.highestCseq), effectCseq) }

  /// Returns once everything queued on the commit thread so far (commits, snapshots) is done.
  func afterQueuedCommits() async {
    // A snapshot being sealed beside the commit thread is stored on it afterwards. One that
    // never finishes is a failure of its own, not a test that hangs.
    for _ in 0..<5_000 where pipeline.snapshot == .inFlight { try? await Task.sleep(for: .milliseconds(2)) }
    if pipeline.snapshot == .inFlight { Issue.record("a snapshot was still in flight after 10 s") }
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      committer.run({ () throws(LogError) in () }, thenOn: eventLoop) { _ in done.resume() }
    }
  }
}

/// The first reason a host gave for stopping.
final class FatalReason: Sendable {
  private let value = Mutex<String?>(nil)
  func set(_ reason: String) { value.withLock { $0 = $0 ?? reason } }
  var reason: String? { value.withLock { $0 } }
}

extension DaemonHost {
  /// True when nothing is left to happen without a new action: no effect running or waiting, nothing
  /// reduced and uncommitted, no commit in flight.
  var isQuiet: Bool { effects.runningCount == 0 && pending.isEmpty && pipeline.commit == .idle }
}
