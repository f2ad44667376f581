import Concord
import ConcordApp
import ConcordLog
import ConcordReplay
import Foundation
import Testing

@testable import ConcordServer

/// What a reduction feeds back with `.send` is logged right after it, in the same commit, so the
/// log alone replays to the state; and what cannot be logged is not reduced either.
@Suite struct FeedbackLogTests {
  struct Tally: Codable, Equatable, Sendable {
    var taps = 0
    var total = 0.0
    var note = ""
  }

  enum TallyAction: Codable, Equatable, Sendable {
    /// Counts a tap, and feeds back `add(1)`.
    case tap
    case add(Double)
    /// Counts a tap and feeds back an `add` that JSON cannot write (not a number).
    case tapBadly
    /// Counts a tap and feeds back a note longer than a line.
    case tapLoudly
    case note(String)
  }

  static let app: HostedApp<Tally, TallyAction> = {
    let reducer = Reducer<Tally, TallyAction, Void> { state, action, _ in
      switch action {
      case .tap:
        state.taps += 1
        return .send(.add(1))
      case let .add(amount):
        state.total += amount
      case .tapBadly:
        state.taps += 1
        return .send(.add(.nan))
      case .tapLoudly:
        state.taps += 1
        return .send(.note(String(repeating: "x", count: 1_100_000)))
      case let .note(text):
        state.note = text
      }
      return .none
    }
    return HostedApp(
      name: "Tally", version: 1, initialState: Tally(), reducer: reducer, environment: (),
      scopes: [.scope("tally", state: { $0 }, action: { (action: TallyAction) in action })])
  }()

  @Test func aFedBackActionIsLoggedRightAfterItsCauseAsTheDaemons() async throws {
    let hosted = try InProcessHost(app: Self.app)
    defer { hosted.removeHome() }
    let host = try hosted.makeHost(onFatal: { Issue.record("the host stopped: \($0)") })
    let window = await hosted.window("w", on: host, attachedTo: "tally")
    await host.handle(.send(scope: "tally", action: ["tap": [:]], client: "c", cseq: 1), from: window)
    try await EffectCancellationTests.waitUntil { await host.isQuiet && hosted.log.lastSeq == 2 }

    var entries: [LogRecord] = []
    try hosted.log.forEachEntry { entries.append($0.record) }
    #expect(entries.map(\.action) == [#"{"tap":{}}"#, #"{"add":{"_0":1}}"#])
    #expect(entries.map(\.client) == ["c", "concordd"])
    // On behalf of the cause: its account, scope and time.
    #expect(entries[1].user == entries[0].user && entries[1].scope == "tally" && entries[1].at == entries[0].at)
    #expect(try Self.app.state(from: hosted.log).state == Tally(taps: 1, total: 1))
  }

  @Test func aFedBackActionThatCannotBeLoggedIsNotReducedAndTheCauseStands() async throws {
    let hosted = try InProcessHost(app: Self.app)
    defer { hosted.removeHome() }
    let host = try hosted.makeHost(onFatal: { Issue.record("the host stopped: \($0)") })
    let window = await hosted.window("w", on: host, attachedTo: "tally")
    await host.handle(.send(scope: "tally", action: ["tapBadly": [:]], client: "c", cseq: 1), from: window)
    await host.handle(.send(scope: "tally", action: ["tapLoudly": [:]], client: "c", cseq: 2), from: window)
    try await EffectCancellationTests.waitUntil { await host.isQuiet && hosted.log.lastSeq >= 2 }

    var entries: [LogRecord] = []
    try hosted.log.forEachEntry { entries.append($0.record) }
    // Compared as a Bool: a failure must not print a megabyte of note.
    let logged = entries.map(\.action)
    let onlyTheCauses = logged == [#"{"tapBadly":{}}"#, #"{"tapLoudly":{}}"#]
    #expect(onlyTheCauses, "logged: \(logged.map { $0.prefix(60) })")
    #expect(entries.allSatisfy { $0.outcome == .applied })
    // Nothing of the dropped actions is in the state, and the daemon took no number for them.
    #expect(await host.state == Tally(taps: 2))
    #expect(await host.cseqs.daemon == 0)
    #expect(try Self.app.state(from: hosted.log).state == Tally(taps: 2))
    var answers: [String] = []
    while let line = window.queue.nextLine() { answers.append(line) }
    #expect(answers.filter { $0.contains(#""type":"ack""#) }.count == 2, "answers: \(answers)")
  }
}
