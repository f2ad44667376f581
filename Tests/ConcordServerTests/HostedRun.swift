import ConcordApp
import ConcordLog
import ConcordPlatform
import ConcordReplay
import ConcordWire
import DaemonDriving
import Foundation
import Logging
import Testing

@testable import ConcordServer

/// One app hosted as `concordd` hosts it — the daemon's own `DaemonHost` on a log in a fresh home,
/// booted from that log, taking snapshots every few commits — driven by windows that are only
/// their outboxes. What a property needs to act as the daemon's users, restart the daemon, and
/// then hold what it did against what its log says.
///
/// Every window keeps its own copy of each scope it is attached to, from the snapshot and the
/// updates it is sent, as a real window does.
final class HostedRun<State: Codable & Sendable & Equatable, Action: Codable & Sendable> {
  struct Window {
    var connection: Connection
    let client: String
    let peer: PeerCredentials
    var lastCseq: Int64 = 0
    /// The state of each attached scope as this window holds it, and the seq it is as of.
    var views: [String: (seq: Int64, state: JSONValue)] = [:]
    /// The last state of each scope it left, to come back to it with `since`.
    var left: [String: (seq: Int64, state: JSONValue)] = [:]
  }

  /// One action a window sent, and where.
  struct Sent {
    let window: Int
    let scope: String
    let action: JSONValue
    let client: String
    let cseq: Int64
  }

  enum Answer: Equatable {
    case applied(seq: Int64)
    case refused(seq: Int64?, reason: String)
    case error(ServerMessage.ErrorCode)
  }

  let app: HostedApp<State, Action>
  let home: URL
  let log: ActionLog
  let snapshotInterval: Int64
  /// Names the case in every failure: the seed that makes it again.
  let label: String
  let logger: Logger
  private(set) var host: DaemonHost<State, Action>
  /// Why the host stopped, if it did: the log could not be written.
  private let fatal = FatalReason()
  var windows: [Window] = []
  private(set) var sent: [Sent] = []
  /// The first answer to each `client/cseq`; a retry must get the same one.
  private(set) var answers: [String: Answer] = [:]
  /// Sent and not answered yet.
  private var awaiting: Set<String> = []
  /// The committed state and its seq each time the run looked: the states the log must give.
  private(set) var committed: [(seq: Int64, state: State)] = []
  private(set) var restarts = 0

  /// The newest committed state the run saw.
  var state: State { committed.last!.state }

  /// Boots the app on an empty log in a fresh home, with a window for each of `peers`.
  init(app: HostedApp<State, Action>, snapshotInterval: Int64, peers: [PeerCredentials], label: String) async throws {
    self.app = app
    self.snapshotInterval = snapshotInterval
    self.label = label
    home = DaemonUnderTest.makeHome()
    log = try ActionLog.open(at: ConcordHome(home).log, key: .file(ConcordHome(home).key))
    var logger = Logger(label: "hosted-run")
    logger.logLevel = .warning
    self.logger = logger
    host = Self.makeHost(
      app: app, log: log, booted: try app.boot(from: log, logger: logger), snapshotInterval: snapshotInterval,
      logger: logger, fatal: fatal)
    await host.start()
    for (index, peer) in peers.enumerated() {
      let connection = Connection(id: "w\(index + 1)", peer: peer, close: {})
      _ = await host.welcome(for: connection)
      windows.append(Window(connection: connection, client: "client-\(index + 1)", peer: peer))
    }
    await settle()
  }

  private static func makeHost(
    app: HostedApp<State, Action>, log: ActionLog, booted: BootedState<State>, snapshotInterval: Int64, logger: Logger,
    fatal: FatalReason
  ) -> DaemonHost<State, Action> {
    DaemonHost(
      app: app, log: log, booted: booted, snapshotInterval: snapshotInterval, logger: logger,
      onFatal: { reason in fatal.set(reason) })
  }

  func removeHome() {
    try? FileManager.default.removeItem(at: home)
  }

  // MARK: - What windows do

  /// Attaches `window` to `scope`; `since`: as a window that saw the scope before, from its
  /// last state of it.
  func attach(_ window: Int, _ scope: String, since: Bool) async {
    guard windows[window].views[scope] == nil else { return }
    let logID = await host.logID
    let position = since ? windows[window].left[scope].map { LogPosition(logID: logID, seq: $0.seq) } : nil
    await host.handle(.attach(scope: scope, since: position), from: windows[window].connection)
    await settle()
  }

  func detach(_ window: Int, _ scope: String) async {
    await host.handle(.detach(scope: scope), from: windows[window].connection)
    await settle()
  }

  /// Sends an action as `window`'s client, with its next cseq; answered at the next `settle`.
  func send(_ window: Int, scope: String, action: JSONValue) async {
    windows[window].lastCseq += 1
    let sent = Sent(window: window, scope: scope, action: action, client: windows[window].client, cseq: windows[window].lastCseq)
    self.sent.append(sent)
    await deliver(sent)
  }

  /// Sends an action again with its original `(client, cseq)`, as a window that did not see the
  /// answer does; from its window, attached again to the scope if it left it.
  func retry(_ sent: Sent) async {
    if windows[sent.window].views[sent.scope] == nil { await attach(sent.window, sent.scope, since: true) }
    await deliver(sent)
  }

  private func deliver(_ sent: Sent) async {
    awaiting.insert("\(sent.client)/\(sent.cseq)")
    let message = ClientMessage.send(scope: sent.scope, action: sent.action, client: sent.client, cseq: sent.cseq)
    await host.handle(message, from: windows[sent.window].connection)
  }

  /// Waits until every action sent has its answer, reading every window's lines meanwhile, then
  /// notes the committed state. With `quiet`, waits also until the effects have ended and what
  /// they sent is committed.
  func settle(quiet: Bool = false) async {
    let deadline = Date().addingTimeInterval(20)
    while true {
      for index in windows.indices { read(index) }
      if awaiting.isEmpty {
        if !quiet { break }
        if await host.isQuiet { break }
      }
      guard Date() < deadline, fatal.reason == nil else {
        Issue.record("\(label): no answer to \(awaiting.sorted()); \(fatal.reason ?? "")")
        awaiting = []
        break
      }
      try? await Task.sleep(for: .milliseconds(1))
    }
    let (seq, state) = await host.committedNow
    committed.append((seq, state))
  }

  /// Reads what waits for `window`, keeping its copies of its scopes up to date.
  private func read(_ index: Int) {
    while let line = windows[index].connection.queue.nextLine() {
      let message: ServerMessage
      do {
        message = try WireCoding().decode(ServerMessage.self, from: Array(line.utf8.dropLast()))
      } catch {
        Issue.record("\(label): a line the window cannot read: \(line)")
        continue
      }
      switch message {
      case let .snapshot(scope, seq, state, _):
        windows[index].views[scope] = (seq, state)
        windows[index].left[scope] = nil
      case let .update(scope, seq, change):
        // The first line of an attach with `since` is an update to the state the window kept.
        guard let view = windows[index].views[scope] ?? windows[index].left[scope] else {
          Issue.record("\(label): an update of \(scope), which window \(index + 1) has no state of")
          continue
        }
        windows[index].left[scope] = nil
        switch change {
        case let .reset(state):
          windows[index].views[scope] = (seq, state)
        case let .diff(diff):
          do {
            windows[index].views[scope] = (seq, try diff.apply(to: view.state))
          } catch {
            Issue.record("\(label): window \(index + 1) cannot apply the update of \(scope) at \(seq): \(error)")
          }
        }
      case let .detached(scope):
        if let view = windows[index].views.removeValue(forKey: scope) { windows[index].left[scope] = view }
      case let .ack(client, cseq, seq):
        answered("\(client)/\(cseq)", .applied(seq: seq))
      case let .refused(client, cseq, seq, reason):
        answered("\(client)/\(cseq)", .refused(seq: seq, reason: reason))
      case let .error(code, _, cseq?):
        answered("\(windows[index].client)/\(cseq)", .error(code))
      case .error(.unknownScope, _, nil):
        // An attach to a scope that names nothing: the window holds nothing of it.
        break
      default:
        break
      }
    }
  }

  private func answered(_ key: String, _ answer: Answer) {
    awaiting.remove(key)
    guard let first = answers[key] else {
      answers[key] = answer
      return
    }
    // A retry of an action the log holds gets the original answer; one the daemon turned away
    // (not an action, not attached) was never logged and may fare differently the next time.
    if case .error = first {
      answers[key] = answer
    } else {
      #expect(answer == first, "\(label): \(key) was answered \(first), then \(answer)")
    }
  }

  // MARK: - The daemon restarts

  /// Stops the host as `concordd` stops (everything reduced is committed), boots a new one from
  /// the log, and has every window reconnect to the scopes it had, with `since`.
  func restart() async throws {
    await settle()
    await host.drain()
    let (seq, state) = await host.committedNow
    committed.append((seq, state))
    let booted = try app.boot(from: log, logger: logger)
    #expect(booted.seq == seq, "\(label): the log ends at \(booted.seq), the daemon stopped at \(seq)")
    #expect(booted.state == state, "\(label): the state booted from the log is not the one the daemon stopped with")
    host = Self.makeHost(app: app, log: log, booted: booted, snapshotInterval: snapshotInterval, logger: logger, fatal: fatal)
    restarts += 1
    await host.start()
    for index in windows.indices {
      let scopes = windows[index].views.keys.sorted()
      for scope in scopes { windows[index].left[scope] = windows[index].views.removeValue(forKey: scope) }
      windows[index].connection = Connection(id: "w\(index + 1)-\(restarts)", peer: windows[index].peer, close: {})
      _ = await host.welcome(for: windows[index].connection)
      for scope in scopes { await attach(index, scope, since: true) }
    }
    await settle()
  }

  // MARK: - The log against the run

  /// What one run's check covered; runs' reports add up, for a property's totals.
  struct Report {
    var entries = 0
    var refusedEntries = 0
    /// Runs whose final boot started from a snapshot.
    var bootsFromSnapshot = 0
    var restarts = 0
    var replayedStates = 0
    /// Scopes whose window's copy was compared with the final state.
    var viewsChecked = 0

    static func += (total: inout Report, run: Report) {
      total.entries += run.entries
      total.refusedEntries += run.refusedEntries
      total.bootsFromSnapshot += run.bootsFromSnapshot
      total.restarts += run.restarts
      total.replayedStates += run.replayedStates
      total.viewsChecked += run.viewsChecked
    }

    /// One line of totals, for the property's output.
    var summary: String {
      "\(entries) entries, \(refusedEntries) refused, \(bootsFromSnapshot) boots from a snapshot, \(restarts) restarts, "
        + "\(replayedStates) states replayed, \(viewsChecked) windows' scopes compared"
    }
  }

  /// Stops the host and checks the log against everything the run saw:
  ///
  /// - booting from the log gives the state the daemon stopped with, at the seq it stopped at,
  ///   and the highest cseq of every client;
  /// - the state as of every seq the run saw is the state the daemon had then;
  /// - each `(client, cseq)` is in the log once, where its answer said;
  /// - every window holds, of each scope it is attached to, what the scope shows of that state.
  func finish() async throws -> Report {
    await settle()
    await host.drain()
    if let reason = fatal.reason { Issue.record("\(label): the host stopped: \(reason)") }
    // Snapshots are written after their commit, on the commit thread: wait for the last one.
    await host.afterQueuedCommits()
    let (lastSeq, finalState) = await host.committedNow
    for index in windows.indices { read(index) }
    var report = Report()

    let booted = try app.boot(from: log, logger: logger)
    report.bootsFromSnapshot = booted.snapshotSeq > 0 ? 1 : 0
    report.restarts = restarts
    #expect(booted.seq == lastSeq, "\(label): the log ends at \(booted.seq), the daemon at \(lastSeq)")
    #expect(booted.state == finalState, "\(label): booting from the log does not give the daemon's last state")
    // The daemon numbers its own actions (effects, lifecycle, feedback) apart from the clients'.
    let daemon = DaemonHost<State, Action>.daemonClient
    let (clientCseqs, daemonCseq) = await host.cseqs
    #expect(
      booted.highestCseq.filter { $0.key != daemon } == clientCseqs.filter { $0.key != daemon },
      "\(label): the highest cseq of each client differs: \(booted.highestCseq) against \(clientCseqs)")
    #expect(booted.highestCseq[daemon, default: 0] == daemonCseq, "\(label): the daemon's own cseq differs")

    var checked = Set<Int64>()
    for (seq, state) in committed where checked.insert(seq).inserted {
      let replayed = try app.state(at: seq, from: log)
      report.replayedStates += 1
      // The first state that differs says it all; the ones after it would differ too.
      guard replayed.seq == seq, replayed.state == state else {
        Issue.record(
          """
          \(label): the state at seq \(seq) rebuilt from the log (as of \(replayed.seq)) is not the one the daemon had:
            \(replayed.state)
            \(state)
          """)
        break
      }
    }

    var seqOfKey: [String: Int64] = [:]
    var outcomes: [Int64: ActionOutcome] = [:]
    try log.forEachEntry { entry in
      report.entries += 1
      if case .refused = entry.record.outcome { report.refusedEntries += 1 }
      outcomes[entry.seq] = entry.record.outcome
      let key = "\(entry.record.client)/\(entry.record.cseq)"
      if let earlier = seqOfKey.updateValue(entry.seq, forKey: key) {
        Issue.record("\(label): \(key) is in the log twice, at \(earlier) and \(entry.seq)")
      }
    }
    for (key, answer) in answers {
      switch answer {
      case let .applied(seq):
        #expect(seqOfKey[key] == seq && outcomes[seq] == .applied, "\(label): \(key) was acknowledged as \(seq)")
      case let .refused(seq?, reason):
        #expect(seqOfKey[key] == seq && outcomes[seq] == .refused(reason: reason), "\(label): \(key) was refused as \(seq)")
      case .refused(nil, _), .error:
        #expect(seqOfKey[key] == nil, "\(label): \(key) was turned away, but the log holds it")
      }
    }

    for window in windows {
      for (scope, view) in window.views {
        // A scope whose element is gone shows as null.
        let shown = (try? app.scopeJSON(scope, of: finalState)) ?? .null
        report.viewsChecked += 1
        #expect(view.state == shown, "\(label): \(window.connection.id) shows \(scope) as \(view.state.jsonText), not \(shown.jsonText)")
      }
    }
    return report
  }
}

extension PeerCredentials {
  /// Two people for a hosted run: the test's own account and another one.
  static let twoPeople = [
    PeerCredentials(pid: 1, uid: getuid(), gid: getgid()),
    PeerCredentials(pid: 2, uid: 65534, gid: 65534),
  ]
}
