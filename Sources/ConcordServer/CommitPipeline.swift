/// The host's group commit as one value: whether a batch is being made durable, whether a
/// snapshot is being made, whether the checkpoint file beside the log is being written, where
/// the host is in its life (``HostLifecycle``), and whether a shutdown waits for it all to go
/// quiet. Events in — actions queued, a commit or a snapshot
/// done, a shutdown asked for, the log failed — and what the host must do out. It knows nothing
/// of batches, the log or the event loop: the host does what it says.
///
/// ```swift
/// var pipeline = CommitPipeline()
/// pipeline.queued()                                   // .startCommit
/// pipeline.queued()                                   // nil: a commit is in flight
/// pipeline.committed(morePending: true, snapshotDue: true)   // [.takeSnapshot, .startCommit]
/// pipeline.drain(pending: false)                      // nil: the commit in flight comes first
/// ```
struct CommitPipeline: Equatable, Sendable {
  enum Commit: Equatable, Sendable {
    case idle
    /// A batch is being sealed, written and synced; the actions reduced meanwhile wait for the
    /// next one.
    case committing
  }

  enum Snapshot: Equatable, Sendable {
    case idle
    /// The state is being encoded, sealed and stored beside the commits: one at a time.
    case inFlight
  }

  /// The checkpoint file beside the log, as the last commit left it: while it fails, a tail cut
  /// off the log would go unnoticed.
  enum CheckpointFile: Equatable, Sendable {
    case written
    case failing
  }

  /// What the host must do.
  enum Action: Equatable, Sendable {
    /// Take what waits as a batch and commit it.
    case startCommit
    /// Snapshot the state as of the last commit.
    case takeSnapshot
    /// Everything taken is durable, and no snapshot is being made: the shutdown may go on.
    case finishDrain
  }

  private(set) var commit = Commit.idle
  private(set) var snapshot = Snapshot.idle
  private(set) var checkpointFile = CheckpointFile.written
  private(set) var lifecycle = HostLifecycle()
  /// Whether a shutdown waits for ``Action/finishDrain``.
  private(set) var drainAwaited = false

  /// Actions were reduced and wait for a commit.
  mutating func queued() -> Action? {
    guard commit == .idle, lifecycle.reduces else { return nil }
    commit = .committing
    return .startCommit
  }

  /// The batch in flight is durable.
  ///
  /// - Parameters:
  ///   - morePending: actions were reduced meanwhile.
  ///   - snapshotDue: enough entries were committed since the last snapshot.
  mutating func committed(morePending: Bool, snapshotDue: Bool) -> [Action] {
    guard lifecycle.reduces else { return [] }
    commit = .idle
    var actions: [Action] = []
    if snapshotDue, snapshot == .idle {
      snapshot = .inFlight
      actions.append(.takeSnapshot)
    }
    if morePending {
      commit = .committing
      actions.append(.startCommit)
    }
    return actions + finishedDrain()
  }

  /// How the checkpoint file fared at the last commit; what changed, to be said once: that it
  /// began failing, or that it is written again.
  mutating func checkpointFile(failing: Bool) -> CheckpointFile? {
    let now: CheckpointFile = failing ? .failing : .written
    guard now != checkpointFile else { return nil }
    checkpointFile = now
    return now
  }

  /// The snapshot in flight is stored, or failed (the next one is tried at a later commit).
  mutating func snapshotDone() -> Action? {
    snapshot = .idle
    return finishedDrain().first
  }

  /// A shutdown began: windows' actions are turned away; what was taken is committed, and a
  /// snapshot being made is stored, before ``Action/finishDrain``.
  mutating func drain(pending: Bool) -> [Action] {
    lifecycle.drain()
    drainAwaited = true
    if pending, let start = queued() { return [start] }
    return finishedDrain()
  }

  /// The log cannot be trusted: nothing more is reduced or committed. A shutdown waiting goes
  /// on at once.
  mutating func fail(because reason: String) -> Action? {
    lifecycle.stop(because: reason)
    commit = .idle
    guard drainAwaited else { return nil }
    drainAwaited = false
    return .finishDrain
  }

  /// ``Action/finishDrain`` when a shutdown waits and nothing is in flight any more; then the
  /// host has stopped, cleanly.
  private mutating func finishedDrain() -> [Action] {
    guard drainAwaited, commit == .idle, snapshot == .idle else { return [] }
    drainAwaited = false
    lifecycle.stop(because: nil)
    return [.finishDrain]
  }
}
