import ConcordClient
import ConcordLog
import ConcordPlatform
import ConcordWire
import DaemonDriving
import Foundation
import PropertyRandom
import SampleApp
import Testing

@testable import ConcordServer

#if canImport(Glibc)
import Glibc
#endif

/// What someone who works offline relies on: everything they did waits in the outbox, and
/// however the sync is cut short — the connection dropped after some answers, an action sent
/// and its answer never read, the client dying between an answer and crossing the action off,
/// the daemon killed with an action on its way — syncing again until the outbox is empty
/// applies every action exactly once, in the order it was done.
///
/// Checked against the real `concordd` (`--app sample`): its log holds each `(client, cseq)` at
/// most once, and its state is the fold of the queued actions, each once, in order. Each plan
/// has a seed, printed in every failure; `CONCORD_PROPERTY_SEED=<seed>` runs that plan alone.
@Suite(.serialized) struct OutboxResendProperties {
  /// One action done offline: what the outbox queues, and what it means to the app.
  struct Done {
    let scope: String
    let json: JSONValue
    let action: SampleApp.Action
  }

  /// How one sync is cut short, after `answers` actions were answered and crossed off.
  enum Interruption: CustomStringConvertible {
    /// Runs until the outbox is empty.
    case none
    /// The connection closes.
    case close(answers: Int)
    /// The next action is sent, and the connection closes before its answer is read.
    case sendThenClose(answers: Int)
    /// The next action is sent and the daemon is killed (-9), at once or a moment later; then
    /// it is started again.
    case sendThenKill(answers: Int, microseconds: UInt32)
    /// The next action is sent and answered, and the client dies before crossing it off: the
    /// outbox still holds it.
    case dieBeforeCrossingOff(answers: Int)

    var description: String {
      switch self {
      case .none: "sync to the end"
      case let .close(answers): "close after \(answers) answers"
      case let .sendThenClose(answers): "after \(answers) answers, send one more and close"
      case let .sendThenKill(answers, microseconds): "after \(answers) answers, send one more and kill -9 (+\(microseconds) µs)"
      case let .dieBeforeCrossingOff(answers): "after \(answers) answers, one more answered and not crossed off"
      }
    }

    var answers: Int? {
      switch self {
      case .none: nil
      case let .close(answers), let .sendThenClose(answers), let .sendThenKill(answers, _), let .dieBeforeCrossingOff(answers):
        answers
      }
    }
  }

  @Test func anInterruptedOutboxResendAppliesEveryQueuedActionExactlyOnce() throws {
    var interruptions = 0
    var kills = 0
    var queuedActions = 0
    var resent = 0
    for seed in PropertyRandom.seeds(from: 0x0B07_0000, count: 10) {
      var random = PropertyRandom(seed: seed)
      let home = DaemonUnderTest.makeHome()
      defer { try? FileManager.default.removeItem(at: home) }

      // Offline: the daemon is not running; every action waits in the outbox.
      let outbox = try Outbox.open(home: ConcordHome(home))
      let done = Self.actions(&random, count: random.int(15...30))
      for action in done { try outbox.enqueue(scope: action.scope, action: action.json) }
      let cseqs = try outbox.queued().map(\.cseq)
      try #require(cseqs.count == done.count)
      let meaning = Dictionary(uniqueKeysWithValues: zip(cseqs, done))
      queuedActions += done.count

      var daemon = try DaemonUnderTest(home: home).start()
      var plan: [String] = []
      /// Every outcome each cseq was given, by every sync and every raw send.
      var outcomes: [Int64: [Answered]] = [:]
      var round = 0
      while try outbox.count() > 0 {
        round += 1
        try #require(round <= 30, "seed \(seed): the outbox is not empty after 30 syncs; \(plan)")
        let remaining = try outbox.count()
        // The first few syncs are cut short; then one runs to the end.
        let interruption = round <= 4 ? Self.interruption(&random, remaining: remaining) : .none
        plan.append(interruption.description)
        if case .none = interruption {} else { interruptions += 1 }
        if case .sendThenKill = interruption { kills += 1 }
        try Self.sync(outbox, daemon: &daemon, interruption, outcomes: &outcomes)
      }
      let context: Comment = "seed \(seed): \(plan.joined(separator: "; "))"

      // Every answer to an action, however many times it was sent, is the same answer.
      resent += outcomes.values.reduce(0) { $0 + $1.count - 1 }
      for (cseq, answers) in outcomes where Set(answers.map({ $0.outcome.said(entry: $0.entry) })).count > 1 {
        Issue.record("cseq \(cseq) was answered \(answers); \(context)")
      }

      #expect(daemon.terminate() == 0, context)
      let log = try ActionLog.open(at: ConcordHome(home).log, key: .file(ConcordHome(home).key))
      var logged: [Int64: Int] = [:]
      var appliedSeqs: [Int64: Int64] = [:]
      try log.forEachEntry { entry in
        guard entry.record.client == outbox.clientID else { return }
        logged[entry.record.cseq, default: 0] += 1
        if entry.record.outcome == .applied { appliedSeqs[entry.record.cseq] = entry.seq }
      }
      for (cseq, count) in logged where count > 1 {
        Issue.record("cseq \(cseq) (\(meaning[cseq]!.json.jsonText) on \(meaning[cseq]!.scope)) is in the log \(count) times; \(context)")
      }
      for (cseq, answers) in outcomes {
        for answer in answers where answer.outcome == .applied {
          #expect(appliedSeqs[cseq] == answer.entry, "cseq \(cseq) was acknowledged as \(answer.entry ?? -1); \(context)")
        }
      }

      // The daemon's state is every queued action applied once, in order.
      var expected = SampleApp.State()
      for action in done {
        var next = expected
        if SampleApp.reducer.reduce(into: &next, action: action.action, environment: ()).refusal == nil { expected = next }
      }
      let state = try SampleApp.hosted.state(from: log).state
      #expect(state.counter == expected.counter, context)
      #expect(state.notes == expected.notes, context)
      #expect(state.nextNoteID == expected.nextNoteID, context)
    }
    print(
      "outbox replay properties: \(queuedActions) actions queued, \(interruptions) syncs cut short "
        + "(\(kills) by kill -9), \(resent) answers to an action sent again")
    if PropertyRandom.replayed == nil {
      #expect(interruptions >= 30)
      #expect(kills >= 5)
      #expect(resent >= 5)
    }
  }

  /// The case the plans above cannot make alone (it needs a second person): an action was
  /// applied, its answer was lost, and before the outbox sends it again someone else removed
  /// what it was done to. The resend must report what the daemon did — applied — not that the
  /// scope names nothing now.
  @Test func aRetryWhoseScopeWasRemovedMeanwhileGetsTheOriginalAnswer() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    let other = try LineSocket(path: daemon.socketPath)
    try other.hello()
    _ = try other.attach("notes")
    try other.send(.send(scope: "notes", action: ["add": ["text": "milk"]], client: "other", cseq: 1))
    try other.receive { if case .ack(_, 1, _) = $0 { true } else { false } }

    // The toggle reaches the daemon and is applied; the client dies before crossing it off.
    let outbox = try Outbox.open(home: ConcordHome(daemon.home))
    let toggle = try outbox.enqueue(scope: "note:1", action: ["toggle": [:]])
    let connection = try ClientConnection(socket: ConcordHome(daemon.home).socket, presence: false)
    guard let answer = try Self.sendRaw(toggle, outbox: outbox, over: connection, readAnswer: true),
      answer.outcome == .applied, let seq = answer.entry
    else {
      Issue.record("the toggle was not applied")
      return
    }
    connection.close()

    // Meanwhile the note goes.
    try other.send(.send(scope: "notes", action: ["remove": ["id": 1]], client: "other", cseq: 2))
    try other.receive { if case .ack(_, 2, _) = $0 { true } else { false } }

    let report = try OutboxSync.run(outbox, over: ClientConnection(socket: ConcordHome(daemon.home).socket, presence: false))
    #expect(report.results.map(\.outcome) == [.applied] && report.results.map(\.entry) == [seq])
    #expect(try outbox.count() == 0)
  }

  /// What the daemon answered one send with: the outcome, and the entry it named.
  struct Answered: Equatable {
    let outcome: ActionOutcome
    let entry: Int64?
  }

  // MARK: - The plans

  static func interruption(_ random: inout PropertyRandom, remaining: Int) -> Interruption {
    let answers = random.int(0...max(0, remaining - 1))
    switch random.int(0...3) {
    case 0: return .close(answers: answers)
    case 1: return .sendThenClose(answers: answers)
    case 2: return .sendThenKill(answers: answers, microseconds: random.chance(50) ? 0 : UInt32(random.int(1...3_000)))
    default: return .dieBeforeCrossingOff(answers: answers)
    }
  }

  /// One sync of the outbox over a new connection, cut short as `interruption` says.
  static func sync(
    _ outbox: Outbox, daemon: inout DaemonUnderTest, _ interruption: Interruption,
    outcomes: inout [Int64: [Answered]]
  ) throws {
    let connection = try ClientConnection(socket: ConcordHome(daemon.home).socket, presence: false)
    defer { connection.close() }
    let queued = try outbox.queued()
    var killed = false

    /// The cut, once the sync has answered (and crossed off) everything before `next`.
    func cut(before next: QueuedAction?) {
      switch interruption {
      case .none:
        return
      case .close:
        break
      case .sendThenClose:
        if let next { _ = try? sendRaw(next, outbox: outbox, over: connection, readAnswer: false) }
      case let .sendThenKill(_, microseconds):
        if let next { _ = try? sendRaw(next, outbox: outbox, over: connection, readAnswer: false) }
        if microseconds > 0 { usleep(microseconds) }
        daemon.kill9()
        killed = true
      case .dieBeforeCrossingOff:
        if let next, let outcome = try? sendRaw(next, outbox: outbox, over: connection, readAnswer: true) {
          outcomes[next.cseq, default: []].append(outcome)
        }
      }
      connection.close()
    }

    if interruption.answers == 0 { cut(before: queued.first) }
    var answered = 0
    do {
      _ = try OutboxSync.run(outbox, over: connection) { action, outcome, entry in
        outcomes[action.cseq, default: []].append(Answered(outcome: outcome, entry: entry))
        answered += 1
        if answered == interruption.answers { cut(before: queued.first { $0.cseq > action.cseq }) }
      }
    } catch .closed {
      // The interruption, as the client sees it: the sync stops, and is run again later.
      if case .none = interruption { throw ClientError.closed }
    }
    if killed { daemon = try DaemonUnderTest(home: daemon.home).start() }
  }

  /// Sends a queued action as the outbox would (attaching its scope first), without crossing it
  /// off; the daemon's answer when `readAnswer`, nil when the daemon turned it away unlogged.
  static func sendRaw(
    _ action: QueuedAction, outbox: Outbox, over connection: ClientConnection, readAnswer: Bool
  ) throws -> Answered? {
    try connection.send(.attach(scope: action.scope, since: nil))
    try connection.send(.send(scope: action.scope, action: action.action, client: outbox.clientID, cseq: action.cseq))
    guard readAnswer else { return nil }
    while let message = try connection.receive(timeout: 10) {
      switch message {
      case let .ack(client, cseq, seq) where client == outbox.clientID && cseq == action.cseq:
        return Answered(outcome: .applied, entry: seq)
      case let .refused(client, cseq, seq, reason) where client == outbox.clientID && cseq == action.cseq:
        return Answered(outcome: .refused(reason: reason), entry: seq)
      case .error(_, _, action.cseq):
        // Not attached: its scope names nothing now. The outbox's sync says so in other words.
        return nil
      default:
        continue
      }
    }
    throw ClientError.closed
  }

  // MARK: - What was done offline

  /// `count` actions on the counter, the notes and single notes: adds with unique texts (a
  /// duplicate would show), and actions the app refuses (below zero, no such note).
  static func actions(_ random: inout PropertyRandom, count: Int) -> [Done] {
    var done: [Done] = []
    for index in 1...count {
      let note = random.int(1...max(1, index / 2))
      switch random.int(0...9) {
      case 0...1:
        done.append(Done(scope: "counter", json: ["increment": [:]], action: .counter(.increment)))
      case 2...3:
        done.append(Done(scope: "counter", json: ["decrement": [:]], action: .counter(.decrement)))
      case 4:
        let amount = random.int(-2...9)
        done.append(Done(scope: "counter", json: ["add": ["amount": .number(Double(amount))]], action: .counter(.add(amount: amount))))
      case 5...7:
        let text = "q\(index)"
        done.append(Done(scope: "notes", json: ["add": ["text": .string(text)]], action: .notes(.add(text: text))))
      case 8:
        done.append(Done(scope: "notes", json: ["remove": ["id": .number(Double(note))]], action: .notes(.remove(id: note))))
      default:
        done.append(Done(scope: "note:\(note)", json: ["toggle": [:]], action: .note(id: note, .toggle)))
      }
    }
    return done
  }
}
