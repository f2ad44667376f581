import ConcordApp
import ConcordLog
import ConcordPlatform
import ConcordWire
import Foundation

/// A window's side of one scope, online and offline: the connection (re-established with
/// backoff), the outbox resent on every reconnect, and the state shown — the daemon's, with
/// the actions still pending applied on top by the app's own reducer (`ClientApp`'s `predict`),
/// computed again on every update of the daemon's (a rebase, as Replicache does).
///
/// It does no I/O of its own beyond the socket: the caller waits on ``fileDescriptor`` (and the
/// keyboard) and calls ``socketReadable()``, ``tick()`` and ``submit(_:typed:)``; each returns what
/// happened, for the caller to show.
///
/// ```swift
/// let session = try WindowSession(home: .resolve(), scope: "counter", app: SampleApp.client)
/// var events = try session.tick()                  // connects, resends, attaches
/// events += try session.submit(["increment": [:]]).events
/// ```
public final class WindowSession {
  /// What happened in one step of the session, for the window to show: the link coming and
  /// going, the state changing, actions answered or queued.
  ///
  /// ```swift
  /// for event in try session.tick() {
  ///   switch event {
  ///   case .stateChanged: redraw(session.readShown())
  ///   case let .answered(cseq, .refused(reason)): say("\(cseq) refused: \(reason)")
  ///   case let .disconnected(reason): say("offline: \(reason)")
  ///   default: break
  ///   }
  /// }
  /// ```
  public enum Event: Sendable, Equatable {
    /// The daemon answered: the session is online, as `user` (the account the daemon knows this
    /// person by), on the log `logID`.
    case connected(user: String, logID: String)
    /// The link to the daemon was lost: the window goes on offline, queueing its actions, and
    /// tries again with backoff.
    case disconnected(reason: String)
    /// The state to show changed.
    case stateChanged
    /// The daemon answered an action of this window.
    case answered(cseq: Int64, ActionOutcome)
    /// An action queued in an earlier session (or while offline) was answered when resent, with
    /// the log's entry the daemon named.
    case resent(QueuedAction, ActionOutcome, entry: Int64?)
    /// The daemon's log does not carry on from what this home has witnessed: nothing was
    /// resent. Said once, when it is first met; a rolled-back log also keeps the window away
    /// from the daemon (offline, queueing) until a person accepts it.
    case logDiverged(LogDivergence)
    /// An action was kept in the outbox: the daemon is away.
    case queued(cseq: Int64, waiting: Int)
    /// The daemon sent an error.
    case error(String)
    /// Every message from the daemon as it came, for `--json`.
    case message(ServerMessage)
  }

  /// The scope the session shows, in NFC, as the daemon names it.
  public let scope: String
  /// The home's outbox, which every action of the window goes through (and its lines' history).
  public let outbox: Outbox
  private let home: ConcordHome
  private let address: DaemonAddress
  private let app: ClientApp?
  private let resumes: Bool
  /// Where the window stands with the daemon, and what the outbox had witnessed before a
  /// connection being made began.
  private var link = SessionLink<ClientConnection, (ConnectionAttempt, witnessed: Outbox.WitnessSnapshot)>()
  private var attached: Set<String> = []
  /// The daemon's state of the scope, and its seq.
  public private(set) var confirmed: SeenState? {
    didSet { confirmedChanges &+= 1 }
  }
  /// Counts the daemon's states this window was given: what it shows is made again only when
  /// that, or what is pending on it, changed.
  private var confirmedChanges = 0
  private var shownMemo: (confirmedChanges: Int, pending: [Int64], user: String, shown: Shown, prediction: Prediction?)?
  /// Who the daemon says this window's person is; nil before it first answered (``userName``
  /// says who it will be).
  public private(set) var user: String?
  /// The state seen is kept in the outbox (to show while the daemon is away) at most once a
  /// second, not at every update: each keeping is an encryption and a commit, and every window
  /// of a home shares the file.
  private var seenUnsaved = false
  private var seenSavedAt = Date.distantPast
  /// How the daemon's log last met did not carry on from what this home witnessed, if it did not.
  public private(set) var divergence: LogDivergence?

  private var connection: ClientConnection? { link.connection }

  /// When the next try to reach the daemon is due, while it is away and not trying.
  public var reconnectsAt: Date? { link.retryAt }
  /// Whether a connection through ssh is being made right now (the window keeps working).
  public var isConnecting: Bool { link.attempt != nil }
  /// Whether the state shown comes from the daemon right now.
  public var isConnected: Bool { connection != nil }
  /// The connection's socket, for the window to wait on with the keyboard and then call
  /// ``socketReadable()``; nil while offline.
  public var fileDescriptor: Int32? { connection?.fileDescriptor }
  /// The log's seq the daemon's state of the scope is as of; nil before any was seen.
  public var seq: Int64? { confirmed?.seq }

  /// A session for `scope`, not connected yet: it shows the state last seen of the scope at
  /// once, and connects on the first ``tick()``.
  ///
  /// - Parameters:
  ///   - home: the home whose outbox, key and socket the session uses.
  ///   - address: where the daemon is; nil for the socket in `home`.
  ///   - scope: the scope to show (`board`, `card:42`).
  ///   - app: predicts the state after the actions still pending; nil shows the daemon's alone.
  ///   - resumes: attach with the state last seen (`since`), so the daemon answers with
  ///     the changes since then; false to be sent the whole state first, as a script wants.
  public init(
    home: ConcordHome, address: DaemonAddress? = nil, scope: String, app: ClientApp?, resumes: Bool = true
  ) throws(ClientError) {
    self.home = home
    self.address = address ?? .socket(home.socket)
    self.resumes = resumes
    // The daemon's spelling of the name (NFC): its answers name the scope so.
    self.scope = scope.nfc
    self.app = app
    outbox = try Outbox.open(home: home)
    confirmed = try outbox.lastSeen(scope)
  }

  /// Actions this window sent that the daemon has not answered yet.
  private var unanswered: Set<Int64> = []
  /// True while an action this window sent waits for the daemon's answer.
  public var hasUnanswered: Bool { !unanswered.isEmpty }

  /// The state to show (``Shown``): the daemon's, with the actions still pending on top —
  /// online, the ones this window sent and awaits; offline, every action queued for the scope
  /// (other windows' and commands' too: they will be sent with the queue). It reads (and
  /// decrypts) the outbox: a step for the window to take when it draws, not at every key.
  public func readShown() -> Shown? {
    guard let confirmed = confirmed?.state else { return nil }
    let queued = ((try? outbox.queued()) ?? []).filter { $0.scope == scope && (!isConnected || unanswered.contains($0.cseq)) }
    guard !queued.isEmpty else { return Shown(state: confirmed, confirmed: confirmed) }
    // As the daemon will sign them: this account, at about the time they were typed.
    let user = userName
    // Predicting runs the app's reducer once for each pending action: not again for the same,
    // and, when actions were only added since, only for the added ones. This rests on a cseq
    // naming one queued action for good (the outbox never gives one out twice: anything that
    // reset its cseqs would have to clear this memo), and on the daemon's state being the same
    // while `confirmedChanges` is.
    let cseqs = queued.map(\.cseq)
    var earlier: Prediction?
    if let memo = shownMemo, memo.confirmedChanges == confirmedChanges, memo.user == user {
      if memo.pending == cseqs { return memo.shown }
      if cseqs.starts(with: memo.pending) { earlier = memo.prediction }
    }
    let (shown, prediction) = predicted(confirmed, queued, user: user, after: earlier)
    shownMemo = (confirmedChanges, cseqs, user, shown, prediction)
    return shown
  }

  /// `confirmed` with `queued` on top, as the app predicts it, going on from `earlier`.
  private func predicted(_ confirmed: JSONValue, _ queued: [QueuedAction], user: String, after earlier: Prediction?)
    -> (Shown, Prediction?)
  {
    let pending = queued.map { PendingAction(action: $0.action, origin: ActionOrigin(user: user, window: "", at: JSONDate.rounded($0.queuedAt))) }
    guard let prediction = app?.predict(scope, confirmed, pending, earlier) else {
      return (Shown(state: confirmed, confirmed: confirmed, pending: queued), nil)
    }
    var refusals: [Int64: String] = [:]
    for (index, reason) in prediction.refusals { refusals[queued[index].cseq] = reason }
    return (Shown(state: prediction.state, confirmed: confirmed, pending: queued, refusals: refusals), prediction)
  }

  /// How many actions wait in the outbox (the home's, every window's and command's). It reads
  /// the outbox.
  public func readWaitingCount() -> Int { (try? outbox.count()) ?? 0 }

  /// Connects when it is time to try again; call it about every 100 ms.
  ///
  /// A daemon on this machine is connected to at once. One on another machine is connected to
  /// on a thread of its own (``isConnecting``), since an ssh login can take seconds: a call
  /// starts it, and a later call takes the connection once it is made.
  ///
  /// Throws only when this client's own outbox cannot be used (another key, a corrupt row, a
  /// full disk): reconnecting would not mend that, so the window ends with the reason.
  public func tick() throws(ClientError) -> [Event] {
    let now = Date()
    if seenUnsaved, now.timeIntervalSince(seenSavedAt) >= 1 { try saveSeen(at: now) }
    guard link.isDue(at: now) else { return [] }
    do {
      let witnessed: Outbox.WitnessSnapshot
      let connection: ClientConnection
      if let (connecting, before) = link.attempt {
        guard let outcome = connecting.take() else { return [] }
        (witnessed, connection) = (before, try outcome.get())
      } else if case .ssh = address {
        // Before the login: another window of the home may witness a newer entry meanwhile.
        let before = try outbox.witnessSnapshot()
        link.connecting((ConnectionAttempt(address: address, presence: true), witnessed: before))
        return []
      } else {
        witnessed = try outbox.witnessSnapshot()
        connection = try ClientConnection(address: address, presence: true)
      }
      link.connected(connection)
      attached = []
      let (resent, divergence) = try resendQueued(witnessedBefore: witnessed)
      let news: [Event] = divergence != self.divergence ? divergence.map { [.logDiverged($0), .stateChanged] } ?? [] : []
      self.divergence = divergence
      if case .rolledBack? = divergence {
        // Nothing is sent to a daemon whose log went back: stay away, and look again later (a
        // person may accept it meanwhile with `concord outbox sync --accept-rollback`).
        connection.close()
        link.holdBack(at: now)
        return news
      }
      user = connection.welcome.user
      try attach()
      return [.connected(user: connection.welcome.user, logID: connection.welcome.logID)] + resent + news
        + (try readBuffered())
    } catch {
      return try lose(error)
    }
  }

  /// ``tick()``, waiting for a connection through ssh to be made or to fail: how a window starts,
  /// so that it opens on the daemon's state when the daemon can be reached.
  public func tickWaitingForConnection() throws(ClientError) -> [Event] {
    var events = try tick()
    _ = try Waiting.until(.infinity, every: 0.02) { () throws(ClientError) -> Bool? in
      guard isConnecting else { return true }
      events += try tick()
      return nil
    }
    return events
  }

  /// Sends an action (through the outbox): applied optimistically at once, answered later
  /// with an ``Event/answered(cseq:_:)`` for the cseq returned.
  ///
  /// - Parameters:
  ///   - action: the scope's action, as JSON.
  ///   - typed: the words a person typed for it, kept with it in the outbox.
  public func submit(_ action: JSONValue, typed: String? = nil) throws(ClientError) -> (cseq: Int64, events: [Event]) {
    let queued = try outbox.enqueue(scope: scope, action: action, typed: typed)
    unanswered.insert(queued.cseq)
    guard let connection else { return (queued.cseq, [.stateChanged, .queued(cseq: queued.cseq, waiting: readWaitingCount())]) }
    do {
      try connection.send(.send(scope: scope, action: action, client: outbox.clientID, cseq: queued.cseq))
    } catch {
      return (queued.cseq, [.stateChanged] + (try lose(error)))
    }
    // What the daemon said meanwhile, taken now: a script submitting its whole input at once
    // still reads as it writes, so the daemon never waits on it, nor drops it as stuck.
    return (queued.cseq, [.stateChanged] + (try socketReadable()))
  }

  /// The socket has something to read. Throws as ``tick()`` does.
  public func socketReadable() throws(ClientError) -> [Event] {
    guard let connection else { return [] }
    let events: [Event]
    let open: Bool
    do {
      open = try connection.readAvailable()
      // Lines read before the close (some while a send waited) are still the daemon's answers.
      events = try readBuffered()
    } catch {
      return try lose(error)
    }
    return open ? events : events + (try lose(ClientError.closed))
  }

  /// The messages read from the socket so far, taken.
  private func readBuffered() throws(ClientError) -> [Event] {
    var events: [Event] = []
    while let message = try connection?.nextBufferedMessage() {
      events += try take(message)
    }
    return events
  }

  private func take(_ message: ServerMessage) throws(ClientError) -> [Event] {
    var events: [Event] = [.message(message)]
    switch message {
    case let .snapshot(scope, seq, state, _) where scope == self.scope:
      try see(state, at: seq)
      events.append(.stateChanged)
    case let .update(scope, seq, change) where scope == self.scope:
      guard let old = confirmed?.state else { break }
      switch change {
      case let .reset(state): try see(state, at: seq)
      case let .diff(diff):
        do {
          try see(try diff.apply(to: old), at: seq)
        } catch {
          // The window's copy went astray: ask for the whole state again.
          try connection?.send(.detach(scope: scope))
          try connection?.send(.attach(scope: scope, since: nil))
          return events + [.error("the update did not apply (\(error)); asking for the whole state")]
        }
      }
      events.append(.stateChanged)
    case let .ack(client, cseq, seq) where client == outbox.clientID:
      unanswered.remove(cseq)
      try outbox.remove(cseq: cseq, answeredAt: entry(seq))
      events += [.answered(cseq: cseq, .applied), .stateChanged]
    case let .refused(client, cseq, seq, reason) where client == outbox.clientID:
      unanswered.remove(cseq)
      try outbox.remove(cseq: cseq, answeredAt: seq.flatMap(entry))
      events += [.answered(cseq: cseq, .refused(reason: reason)), .stateChanged]
    case let .error(.unavailable, text, cseq?) where unanswered.contains(cseq):
      // The daemon could not keep it (it is stopping, or its disk is full): the action stays in
      // the outbox, and the next connection sends it again, as a sync would.
      return events + (try lose(ClientError.unreachable(text)))
    case let .error(code, text, cseq):
      if let cseq, code != .unavailable {
        // Not an action the daemon can take (it did not decode, say): it leaves the outbox.
        unanswered.remove(cseq)
        try outbox.remove(cseq: cseq)
        events += [.answered(cseq: cseq, .refused(reason: text)), .stateChanged]
      } else {
        events.append(.error(text))
      }
    default:
      break
    }
    return events
  }

  /// Entry `seq` of the log this window is connected to.
  private func entry(_ seq: Int64) -> LogPosition? {
    connection.map { LogPosition(logID: $0.welcome.logID, seq: seq) }
  }

  private func see(_ state: JSONValue, at seq: Int64) throws(ClientError) {
    confirmed = SeenState(scope: scope, logID: connection?.welcome.logID ?? confirmed?.logID ?? "", seq: seq, state: state)
    seenUnsaved = true
    let now = Date()
    if now.timeIntervalSince(seenSavedAt) >= 1 { try saveSeen(at: now) }
  }

  /// Keeps the state seen in the outbox now.
  private func saveSeen(at now: Date = Date()) throws(ClientError) {
    guard seenUnsaved, let confirmed else { return }
    try outbox.remember(confirmed)
    seenUnsaved = false
    seenSavedAt = now
  }

  deinit {
    // The window closes: the state it last saw is what it shows next time, offline.
    try? saveSeen()
  }

  /// Leaves the daemon now (the window shows another scope): its presence ends at once rather
  /// than when the daemon stops hearing from it. The state last seen is kept.
  public func close() {
    try? saveSeen()
    connection?.close()
    // A connection still being made closes itself when its thread lets go of it.
    link.close()
  }

  /// Who the daemon says this window's person is, or, before it said so, who it will say: this
  /// account.
  public var userName: String { user ?? Account.current.nfc }

  /// Sends the queue; the events of its answers, and how the daemon's log does not carry on
  /// from what this home witnessed, if it does not.
  private func resendQueued(witnessedBefore: Outbox.WitnessSnapshot) throws(ClientError) -> ([Event], LogDivergence?) {
    guard let connection else { return ([], nil) }
    var events: [Event] = []
    var other: [ServerMessage] = []
    let report = try OutboxSync.run(
      outbox, over: connection, witnessedBefore: witnessedBefore, attached: &attached, other: { other.append($0) }
    ) {
      events.append(.resent($0, $1, entry: $2))
    }
    unanswered = []
    // The scopes the queue needed are not this window's: it does not watch them any longer.
    for needed in attached where needed != scope {
      try connection.send(.detach(scope: needed))
      attached.remove(needed)
    }
    for message in other { events += try take(message) }
    return (events, report.divergence)
  }

  private func attach() throws(ClientError) {
    guard let connection else { return }
    if attached.contains(scope) {
      // Resending the queue attached it already: its snapshot came in with the resend.
      return
    }
    var since: LogPosition?
    // Only from a state the home's witness still covers: one past it (the witness was taken
    // back by a person accepting a rolled-back log) belongs to a history the daemon does not
    // have, and the changes since that seq in its history would not apply to it.
    if resumes, let confirmed, confirmed.logID == connection.welcome.logID, let witnessed = try outbox.witnessed(),
      witnessed.logID == confirmed.logID, confirmed.seq <= witnessed.seq
    {
      since = LogPosition(logID: confirmed.logID, seq: confirmed.seq)
    }
    try connection.send(.attach(scope: scope, since: since))
    attached.insert(scope)
  }

  /// Drops the connection and schedules the next try; rethrows a failure of the outbox itself.
  private func lose(_ error: any Error) throws(ClientError) -> [Event] {
    let wasConnected = connection != nil
    connection?.close()
    // With jitter (``Backoff``): windows that lost one daemon (or one network) do not all call
    // back at once; at most 2 s between tries: a window should find its daemon soon after it
    // is back.
    link.lost(at: Date())
    // The outbox's own failure is the one to report: saving to it again could only hide it.
    if case let .local(reason)? = error as? ClientError { throw .local(reason) }
    try saveSeen()
    var reason = (error as? ClientError)?.description ?? "\(error)"
    // Over ssh an ending connection is as often the network as the daemon.
    if case let .ssh(target) = address, error as? ClientError == .closed { reason = "the link to \(target) was lost" }
    return wasConnected ? [.disconnected(reason: reason), .stateChanged] : []
  }
}

/// What a window shows of its scope: the daemon's state, and the actions still pending on top.
///
/// ```swift
/// if let shown = session.readShown() {
///   draw(shown.state)                                    // as predicted
///   for action in shown.pending { mark(action.cseq, refused: shown.refusals[action.cseq]) }
/// }
/// ```
public struct Shown: Sendable, Equatable {
  /// The state after the pending actions, as the app's reducer predicts it; the daemon's when
  /// nothing is pending or the app cannot predict.
  public var state: JSONValue
  /// The daemon's state, as last seen.
  public var confirmed: JSONValue
  /// The actions not answered yet, oldest first.
  public var pending: [QueuedAction]
  /// Why the app's reducer refused pending actions on the state shown, by cseq: the daemon,
  /// which decides, will likely refuse them too.
  public var refusals: [Int64: String]

  /// What to show: the state after the pending actions, and what it rests on.
  ///
  /// - Parameters:
  ///   - state: the state after the pending actions.
  ///   - confirmed: the daemon's state.
  ///   - pending: the actions not answered yet, oldest first.
  ///   - refusals: why the app's reducer refused pending actions, by cseq.
  public init(state: JSONValue, confirmed: JSONValue, pending: [QueuedAction] = [], refusals: [Int64: String] = [:]) {
    self.state = state
    self.confirmed = confirmed
    self.pending = pending
    self.refusals = refusals
  }
}
