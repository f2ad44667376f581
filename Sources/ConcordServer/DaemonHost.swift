import ConcordApp
import Concord
import ConcordLog
import ConcordReplay
import ConcordWire
import Foundation
import Logging
import NIOCore
import NIOPosix

/// The daemon's single source of truth for one hosted app: reduces every action, has it made
/// durable, and only then answers its sender, updates the windows whose scope changed, and
/// starts its effects (ARCHITECTURE.md, "One action, end to end").
///
/// Actions are reduced as they arrive; the ones reduced while a commit is in flight form the
/// next batch. What windows see is always the state as of the last commit, never an action the
/// log does not hold yet.
///
/// The host runs on the event loop that serves the windows' sockets: reading a line, reducing
/// it and writing the answers happen on one thread with no hand-off between threads, as in
/// Redis. Only the commit (sealing, SQLite, fsync) runs elsewhere, overlapping the next batch.
actor DaemonHost<State: Codable & Sendable, Action: Codable & Sendable>: ConnectionHost {
  let app: HostedApp<State, Action>
  let log: ActionLog
  let logID: String
  let committer: GroupCommitter
  let logger: Logger
  let snapshotInterval: Int64
  /// Called once when the daemon must stop: the log could not be written.
  let onFatal: @Sendable (String) -> Void
  let effects: EffectRuntime<Action>
  /// The event loop the host runs on, kept alive with it.
  let eventLoop: any EventLoop
  private let executor: UnownedSerialExecutor

  nonisolated var unownedExecutor: UnownedSerialExecutor { executor }

  /// The state with every reduced action, durable or not.
  var state: State
  /// The state as of `committedSeq`: the only one windows are shown.
  var committedState: State
  var committedSeq: Int64
  var lastSnapshotSeq: Int64
  /// What the host knows of each client id (``KnownClient``): one lookup on the send path.
  var clients: [String: KnownClient]
  /// The last state of each scope that was found to fit in a line
  /// (``scopeTooLargeToSend(_:before:)``).
  var fittingStates: [String: FittingState] = [:]
  /// For each scope, the JSON of the app's ``MemoizedEncodable`` elements (a board's cards),
  /// kept from one encode of the scope to the next: an action changes one card, not a hundred.
  /// One memo a scope, since ids are a scope's own (message 150 of one channel is not message
  /// 150 of another) and two scopes may show one element two ways; at most 5,000 elements
  /// each, then that memo starts afresh (``encodeMemo(for:)``).
  var encodeMemos: [String: EncodeMemo] = [:]
  /// Reduced, waiting for the next commit.
  var pending: [Pending] = []
  /// Who waits for the answer to each `(client, cseq)` reduced but not yet committed, and the
  /// place in each one's queue the answer goes to.
  var answerSlots: [ActionKey: [AnswerSlot]] = [:]
  /// Committing or not, a snapshot in flight or not, and accepting, draining or stopped: see
  /// ``CommitPipeline``.
  var pipeline = CommitPipeline()
  /// Where the lifecycle is: the pipeline's.
  var lifecycle: HostLifecycle { pipeline.lifecycle }
  /// The shutdown waiting for the pipeline's ``CommitPipeline/Action/finishDrain``.
  private var drained: CheckedContinuation<Void, Never>?
  var effectCseq: Int64
  var instances: [String: ScopeInstance] = [:]
  /// Scopes whose state could not be encoded the last time it was published: the daemon's log
  /// says so once, when one starts to show null, not at every commit.
  var scopesShowingNull: Set<String> = []
  let startedAt = Date()
  /// Reads the wall clock; tests step it back.
  let wallClock: @Sendable () -> Date
  /// The time of the last action reduced: no action is given (and logged with) an earlier one.
  var lastActionTime: Date
  var connections: Set<Connection> = []

  /// The client id under which the daemon records its own actions (``LogRecord/daemonClient``).
  static var daemonClient: String { LogRecord.daemonClient }

  /// A reduced action waiting for its commit, with the work to start once it is durable.
  struct Pending {
    let record: LogRecord
    let work: Effect<Action>
  }

  /// An attached scope (`card:42`) and the windows on it.
  struct ScopeInstance {
    let key: ScopeKey
    let scope: AppScope<State, Action>
    var last: ProjectedState?
    /// What the windows were last given: shared by all of them.
    var published: PublishedState
    var history: ScopeHistory
    var connections: Set<Connection>

    /// Takes `published`, made from `projected`, as what the windows were last given.
    mutating func publish(_ published: PublishedState, projectedFrom projected: ProjectedState?) {
      last = projected
      self.published = published
      history.record(published.state, at: published.seq)
    }
  }

  /// Scopes nobody watches any more, kept a while (with the seq they were left at) so that a
  /// window reconnecting to one gets the changes since it left rather than the whole state.
  var resting: [String: (instance: ScopeInstance, since: Int64)] = [:]
  var restingOrder: [String] = []
  static var restingLimit: Int { 256 }

  init(
    app: HostedApp<State, Action>, log: ActionLog, booted: BootedState<State>,
    snapshotInterval: Int64, logger: Logger, eventLoop: any EventLoop = MultiThreadedEventLoopGroup.singleton.next(),
    wallClock: @escaping @Sendable () -> Date = Date.init, onFatal: @escaping @Sendable (String) -> Void
  ) {
    self.wallClock = wallClock
    self.lastActionTime = booted.lastTime ?? .distantPast
    self.eventLoop = eventLoop
    self.executor = eventLoop.executor.asUnownedSerialExecutor()
    self.app = app
    self.log = log
    self.logID = log.logID.hex
    self.committer = GroupCommitter(log: log)
    self.logger = logger
    self.snapshotInterval = snapshotInterval
    self.onFatal = onFatal
    self.effects = EffectRuntime(clock: ContinuousClock()) { [logger] in logger.warning("effect: \($0)") }
    self.state = booted.state
    self.committedState = booted.state
    self.committedSeq = booted.seq
    self.lastSnapshotSeq = booted.snapshotSeq
    self.clients = booted.highestCseq.mapValues { KnownClient(highestCseq: $0, owner: nil) }
    self.effectCseq = booted.highestCseq[Self.daemonClient] ?? 0
  }

  /// Sends the app its `booted` lifecycle action: the first action after replay.
  func start() {
    if let booted = app.lifecycle.booted { reduceAndQueueOwn(booted, user: Self.daemonClient, scope: "") }
  }

  // MARK: - Actions

  /// Reduces an action, and then at once what it feeds back with `.send` (``Reduction``), and
  /// queues them all for the next commit: the feedback as entries of its own right after its
  /// cause, in the same batch, so that replaying the log reduces the same actions in the same
  /// order without running any effect.
  func reduceAndQueue(_ action: Action, record: LogRecord, answering connection: Connection?) {
    guard lifecycle.reduces else {
      connection?.send(.error(code: .unavailable, message: "the daemon is stopping", cseq: record.cseq))
      return
    }
    if let connection {
      answerSlots[ActionKey(client: record.client, cseq: record.cseq), default: []].append(AnswerSlot(connection))
    }
    // The record of the step being reduced. Fed-back actions are the daemon's, on behalf of the
    // cause's user and scope, at the cause's time; one that cannot be logged (it cannot be
    // encoded, or is longer than a line) is refused and dropped (it changed nothing) rather
    // than reduced.
    var stepRecord: LogRecord? = record
    Reduction.reduceWithFeedback(
      action, into: &state,
      reduce: { state, action in
        if stepRecord == nil {
          stepRecord = daemonRecord(action, user: record.user, scope: record.scope, at: record.at)
          guard stepRecord != nil else { return .refuse("the action could not be recorded") }
        }
        return app.reduceAdmitted(&state, action)
      },
      check: { before, after in self.scopeTooLargeToSend(after, before: before).map { Refusal($0) } }
    ) { step in
      guard var logged = stepRecord else { return }
      stepRecord = nil
      if let refusal = step.refusal { logged.outcome = .refused(reason: WireLimits.bounded(refusal.reason)) }
      if !step.work.isNone { effects.cancelAhead(step.work) }
      pending.append(Pending(record: logged, work: step.work))
    }
    perform(pipeline.queued())
  }

  /// An action of the daemon's own: from an effect or the lifecycle.
  func reduceAndQueueOwn(_ action: Action, user: String, scope: String, at: Date? = nil) {
    // A cseq is taken only by an action that goes to the log: one that is dropped (the host
    // stopped, or the action cannot be encoded) would leave the daemon's numbering past the log's.
    guard lifecycle.reduces, let record = daemonRecord(action, user: user, scope: scope, at: at ?? actionTime()) else {
      return
    }
    reduceAndQueue(action, record: record, answering: nil)
  }

  /// The record of an action of the daemon's own, under its next cseq (taken only when the
  /// record is made); nil, with the reason in the daemon's log, when the action cannot be logged:
  /// it cannot be encoded, or it is longer than a line.
  private func daemonRecord(_ action: Action, user: String, scope: String, at: Date) -> LogRecord? {
    guard let record = makeRecord(action, client: Self.daemonClient, cseq: effectCseq + 1, user: user, scope: scope, at: at)
    else { return nil }
    guard record.action.utf8.count <= WireLimits.maximumMessageBytes else {
      logger.error(
        "an action of the daemon's own is \(record.action.utf8.count.grouped) bytes as it would be logged, more than a line, and was dropped")
      return nil
    }
    effectCseq += 1
    return record
  }

  func makeRecord(
    _ action: Action, client: String, cseq: Int64, user: String, scope: String, at: Date
  ) -> LogRecord? {
    do {
      let json = try JSONValue(encoding: action).jsonText
      return LogRecord(
        client: client, cseq: cseq, at: at, user: user, scope: scope, action: json, outcome: .applied,
        app: app.name, appVersion: app.version)
    } catch {
      logger.error("an action could not be encoded for the log, and was dropped: \(error)")
      return nil
    }
  }

  /// The time an action happens at: the wall clock, except that it never goes back. A clock
  /// stepped back (by NTP, or by hand) would otherwise log actions before the ones already
  /// logged and show reducers time running backwards; instead actions keep the last time until
  /// the clock catches up. Live and replayed reductions see the same time: it is in the log.
  func actionTime() -> Date {
    // To the millisecond, as the log keeps it: the state reduced now is the one replay rebuilds.
    let now = max(JSONDate.rounded(wallClock()), lastActionTime)
    lastActionTime = now
    return now
  }

  /// Where running effects send their actions: made once (holding the host weakly), not for
  /// every effect a commit starts.
  private var effectDelivery: EffectRuntime<Action>.Delivery {
    if let delivery { return delivery }
    let made: EffectRuntime<Action>.Delivery = { [weak self] action in await self?.receive(action) }
    delivery = made
    return made
  }
  private var delivery: EffectRuntime<Action>.Delivery?

  /// An action from a running effect. It runs on the effect's own task, so an effect cancelled
  /// while its action waited for the host is dropped here, after the cancellation was reduced.
  private func receive(_ action: Action) {
    guard !Task.isCancelled else { return }
    reduceAndQueueOwn(action, user: Self.daemonClient, scope: "")
  }

  // MARK: - Group commit

  /// Does what the pipeline says.
  private func perform(_ action: CommitPipeline.Action?) {
    switch action {
    case .startCommit?: startCommit()
    case .takeSnapshot?: takeSnapshot()
    case .finishDrain?:
      drained?.resume()
      drained = nil
    case nil: break
    }
  }

  /// Commits what waits as one batch, off the event loop; the answers, updates and effects wait
  /// for it.
  private func startCommit() {
    let batch = pending
    pending = []
    let stateAfter = state
    committer.append(batch.map(\.record), thenOn: eventLoop) { [self] result in
      // The committer calls back on the host's event loop: the host's own executor.
      assumeIsolated { host in
        switch result {
        case let .success(appended):
          guard host.committed(batch, appended: appended, stateAfter: stateAfter) else { return }
          host.reportCheckpointFile()
          let snapshotDue = host.committedSeq - host.lastSnapshotSeq >= host.snapshotInterval
          for action in host.pipeline.committed(morePending: !host.pending.isEmpty, snapshotDue: snapshotDue) {
            host.perform(action)
          }
        case let .failure(error):
          host.fail("the log could not be written: \(error)")
        }
      }
    }
  }

  /// Says once when the checkpoint file beside the log cannot be written (a full disk, say),
  /// and once when it is written again: meanwhile a tail cut off the log would go unnoticed.
  private func reportCheckpointFile() {
    let failure = log.checkpointFileFailure
    switch pipeline.checkpointFile(failing: failure != nil) {
    case .failing?:
      logger.error("the checkpoint file beside the log could not be written, and is tried again at the next checkpoint: \(failure.map { "\($0)" } ?? "")")
    case .written?:
      logger.notice("the checkpoint file beside the log is written again")
    case nil:
      break
    }
  }

  /// After a commit: updates, then answers, then effects (invariant 1: nothing before this).
  /// False when the batch cannot be trusted, and the host stopped.
  private func committed(_ batch: [Pending], appended: [Appended], stateAfter: State) -> Bool {
    // The host checks for retries before reducing; a duplicate here means the state holds an
    // action twice that the log holds once: nobody may see that state.
    if let duplicate = appended.first(where: \.isDuplicate) {
      fail("entry \(duplicate.entry.seq) was reduced twice")
      return false
    }
    committedState = stateAfter
    committedSeq = appended.last?.entry.seq ?? committedSeq
    // A batch of refusals changed nothing a window could see.
    if batch.contains(where: { $0.record.outcome == .applied }) { publishChanges() }
    for result in appended {
      let key = ActionKey(client: result.entry.record.client, cseq: result.entry.record.cseq)
      let answer = Self.answer(for: result.entry)
      for slot in answerSlots.removeValue(forKey: key) ?? [] { slot.answer(answer) }
    }
    for pending in batch {
      guard !pending.work.isNone else { continue }
      _ = effects.start(pending.work, deliver: effectDelivery)
    }
    return true
  }

  static func answer(for entry: LogEntry) -> ServerMessage {
    switch entry.record.outcome {
    case .applied: .ack(client: entry.record.client, cseq: entry.record.cseq, seq: entry.seq)
    case let .refused(reason):
      .refused(client: entry.record.client, cseq: entry.record.cseq, seq: entry.seq, reason: reason)
    }
  }

  /// Off the hot path: the state is encoded and sealed beside the commit thread, and only
  /// stored on it, so commits do not queue behind the encoding of a large state (a near-1 MB
  /// board took 9–15 ms). One at a time: while one is being made, the next waits for a later commit.
  private func takeSnapshot() {
    lastSnapshotSeq = committedSeq
    let (snapshot, seq, log, logger, version) = (committedState, committedSeq, log, logger, app.appVersion)
    committer.run(
      preparing: { () throws(LogError) in try log.sealSnapshot(snapshot, at: seq, by: version) },
      then: { (sealed) throws(LogError) in try log.store(sealed) }, thenOn: eventLoop
    ) { [self] result in
      assumeIsolated { $0.perform($0.pipeline.snapshotDone()) }
      switch result {
      case .success: logger.info("snapshot at seq \(seq)")
      case let .failure(error): logger.error("snapshot at seq \(seq) failed: \(error)")
      }
    }
  }

  /// The log cannot be trusted to hold what the state holds: answer no one, and stop.
  private func fail(_ reason: String) {
    let drain = pipeline.fail(because: reason)
    logger.critical("\(reason); stopping")
    // Everyone still waiting, for the failed batch or a later one, is told nothing was saved.
    for (key, slots) in answerSlots {
      for slot in slots { slot.answer(.error(code: .unavailable, message: "not saved: \(reason)", cseq: key.cseq)) }
    }
    answerSlots = [:]
    effects.cancelAll()
    onFatal(reason)
    perform(drain)
  }

  /// Stops taking actions and returns once everything reduced is committed, and a snapshot
  /// being made is stored (the log closes after this), or the log failed.
  func drain() async {
    await withCheckedContinuation { continuation in
      drained = continuation
      for action in pipeline.drain(pending: !pending.isEmpty) { perform(action) }
    }
    effects.cancelAll()
  }
}

// Outside the generic host, though only it uses them: nested in `DaemonHost<State, Action>`
// they were generic types too, whose metadata the runtime looked up several times an action.

/// Where an action's answer goes: the window waiting for it, and the place in its queue.
struct AnswerSlot {
  let connection: Connection
  let place: Int

  /// Takes `connection`'s next place for an answer.
  init(_ connection: Connection) {
    self.connection = connection
    place = connection.reserveAnswer()
  }

  func answer(_ message: ServerMessage) { connection.answer(place, with: message) }
}

/// A client id as the host knows it: the highest cseq it sent, and the account it belongs to,
/// once that was needed (looked up in the log once per run for a client from before).
struct KnownClient {
  var highestCseq: Int64
  var owner: String?
}

/// An action as its sender names it: exactly-once is kept per `(client, cseq)`.
struct ActionKey: Hashable {
  let client: String
  let cseq: Int64
}
