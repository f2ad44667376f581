import ConcordLog
import ConcordWire

/// Sends what waits in the outbox, oldest first, each action with its original
/// `(client, cseq)`, and removes each one once the daemon has answered it.
///
/// Interrupted anywhere — the process killed, the daemon gone — and run again, it sends again
/// only what was not answered, and the daemon answers a repeat with the original outcome: every
/// action is applied exactly once.
///
/// ```swift
/// let report = try OutboxSync.run(outbox, over: connection) { action, outcome, entry in
///   print(action.cseq, outcome.said(entry: entry))
/// }
/// ```
public enum OutboxSync {
  /// What one run did: each action's outcome, or why nothing was sent.
  ///
  /// ```swift
  /// let report = try OutboxSync.run(outbox, over: connection)
  /// if let divergence = report.divergence { print(divergence, divergence.decision) }
  /// print("\(report.applied) applied, \(report.refused) refused")
  /// ```
  public struct Report: Sendable {
    /// Each queued action's outcome, and the log's entry the daemon answered with (none for an
    /// action it could not take at all: it left the outbox all the same).
    public var results: [(action: QueuedAction, outcome: ActionOutcome, entry: Int64?)] = []
    /// Set when the daemon's log does not carry on from what this home has witnessed of it:
    /// nothing was sent.
    public var divergence: LogDivergence?

    /// How many actions the daemon applied.
    public var applied: Int { results.count { if case .applied = $0.outcome { true } else { false } } }
    /// How many it refused, or could not take at all: they left the outbox too.
    public var refused: Int { results.count - applied }
  }

  /// Resends the outbox over `connection`, unless the daemon's log does not carry on from what
  /// this home has witnessed (``LogDivergence``): then nothing is sent until a person decides.
  /// A replaced log with nothing queued is simply taken on.
  ///
  /// - Parameters:
  ///   - outbox: the home's outbox, whose queue is sent.
  ///   - connection: a connection to the daemon, greeted.
  ///   - force: send even when the daemon's log is not the one last synced with (replaced).
  ///   - acceptRollback: send even when the daemon's log ends before what this home has seen.
  ///   Either way the daemon's position becomes the one witnessed.
  ///   - witnessedBefore: what the home had witnessed before `connection` was made
  ///     (``Outbox/witnessSnapshot()``); when nil, it is read now, which is right only when no
  ///     other window of the home can be answered meanwhile.
  ///   - attached: the scopes already attached on this connection; those the actions need are
  ///     attached and added.
  ///   - other: every other message that arrives meanwhile (a window's updates).
  ///   - shownHere: the actions (by cseq) whose answers the caller tells the person itself (a
  ///     command's own action): their refusals are not kept for the home's windows to show,
  ///     which is for refusals nobody saw (``Outbox/refusedOnResend()``).
  ///   - onResult: called as each action is answered.
  public static func run(
    _ outbox: Outbox, over connection: ClientConnection, force: Bool = false, acceptRollback: Bool = false,
    witnessedBefore: Outbox.WitnessSnapshot? = nil,
    attached: inout Set<String>, other: (ServerMessage) -> Void = { _ in }, shownHere: Set<Int64> = [],
    onResult: (QueuedAction, ActionOutcome, _ entry: Int64?) -> Void = { _, _, _ in }
  ) throws(ClientError) -> Report {
    var report = Report()
    let queued = try outbox.queued()
    // Where the log stands now: a connection used for many syncs has seen it grow since its
    // welcome, and this home witnessed that growth.
    let daemon = LogPosition(logID: connection.welcome.logID, seq: connection.newestSeq)
    let witnessed: LogPosition?
    if let witnessedBefore { witnessed = witnessedBefore.position } else { witnessed = try outbox.witnessed() }
    switch LogDivergence.between(witnessed: witnessed, daemon: daemon) {
    case nil:
      try outbox.witness(daemon)
    case .replaced? where force || queued.isEmpty, .rolledBack? where acceptRollback:
      try outbox.adopt(daemon)
    case let divergence?:
      report.divergence = divergence
      return report
    }
    for action in queued {
      let (outcome, entry) = try send(action, outbox: outbox, over: connection, attached: &attached, other: other)
      var refusal: (QueuedAction, String)?
      if case let .refused(reason) = outcome, !shownHere.contains(action.cseq) { refusal = (action, reason) }
      try outbox.remove(
        cseq: action.cseq, answeredAt: entry.map { LogPosition(logID: daemon.logID, seq: $0) }, refusedOnResend: refusal)
      report.results.append((action, outcome, entry))
      onResult(action, outcome, entry)
    }
    return report
  }

  /// Resends with no window around it: what `concord outbox sync` and `send` do.
  ///
  /// - Parameters:
  ///   - outbox: the home's outbox, whose queue is sent.
  ///   - connection: a connection to the daemon, greeted.
  ///   - force: send even when the daemon's log is not the one last synced with (replaced).
  ///   - acceptRollback: send even when the daemon's log ends before what this home has seen.
  ///   - witnessedBefore: what the home had witnessed before `connection` was made; nil reads
  ///     it now.
  ///   - shownHere: the actions (by cseq) whose answers the caller tells the person itself:
  ///     their refusals are not kept for the home's windows.
  ///   - onResult: called as each action is answered.
  public static func run(
    _ outbox: Outbox, over connection: ClientConnection, force: Bool = false, acceptRollback: Bool = false,
    witnessedBefore: Outbox.WitnessSnapshot? = nil, shownHere: Set<Int64> = [],
    onResult: (QueuedAction, ActionOutcome, _ entry: Int64?) -> Void = { _, _, _ in }
  ) throws(ClientError) -> Report {
    var attached: Set<String> = []
    return try run(
      outbox, over: connection, force: force, acceptRollback: acceptRollback, witnessedBefore: witnessedBefore,
      attached: &attached, shownHere: shownHere, onResult: onResult)
  }

  /// Attaches `scope` and waits for its snapshot; the daemon's reason when it has no such scope.
  private static func attach(
    _ scope: String, over connection: ClientConnection, other: (ServerMessage) -> Void
  ) throws(ClientError) -> String? {
    try connection.send(.attach(scope: scope, since: nil))
    while let message = try connection.receive(timeout: 30) {
      switch message {
      case .snapshot(scope, _, _, _):
        other(message)
        return nil
      case let .error(.unknownScope, reason, nil):
        return reason
      default:
        other(message)
      }
    }
    throw .closed
  }

  /// Sends one queued action; what the daemon made of it, and the entry it answered with (none
  /// for an action it could not take at all).
  private static func send(
    _ action: QueuedAction, outbox: Outbox, over connection: ClientConnection, attached: inout Set<String>,
    other: (ServerMessage) -> Void
  ) throws(ClientError) -> (ActionOutcome, entry: Int64?) {
    // Why the scope cannot be attached (it names nothing now), if it cannot. The action is sent
    // all the same: it may be a retry of one the daemon applied before the scope went, and the
    // daemon answers a retry with the original outcome; a new one it turns away as not attached.
    var unattachable: String?
    if !attached.contains(action.scope) {
      unattachable = try attach(action.scope, over: connection, other: other)
      if unattachable == nil { attached.insert(action.scope) }
    }
    // When it was typed: the app sees that time, not the time the link came back.
    try connection.send(
      .send(scope: action.scope, action: action.action, client: outbox.clientID, cseq: action.cseq, typedAt: action.queuedAt))
    while true {
      guard let message = try connection.receive(timeout: 60) else { throw .closed }
      switch message {
      case let .ack(client, cseq, seq) where client == outbox.clientID && cseq == action.cseq:
        return (.applied, seq)
      case let .refused(client, cseq, seq, reason) where client == outbox.clientID && cseq == action.cseq:
        return (.refused(reason: reason), seq)
      case let .error(code, text, cseq) where cseq == action.cseq:
        // The daemon could not save it: keep it for later. Anything else it can never take.
        if code == .unavailable { throw .unreachable(text) }
        return (.refused(reason: code == .notAttached ? unattachable ?? text : text), nil)
      default:
        other(message)
      }
    }
  }
}
