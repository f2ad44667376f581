import ConcordReplay
import ConcordApp
import ConcordWire
import Foundation
import Logging
import SampleApp
import Testing
import Workspace

@testable import ConcordServer

/// Limits set after a log was written judge new actions only: a log whose older entries break
/// them still boots to the same state, and a state already too large to send does not stop
/// every action — only the ones that would make it larger.
@Suite struct LimitsOverTimeTests {
  /// A host on `hosted`'s log for `app`, booted from the log as it is now.
  static func host<State, Action>(
    _ app: HostedApp<State, Action>, on hosted: InProcessHost<State, Action>
  ) throws -> DaemonHost<State, Action> {
    DaemonHost(
      app: app, log: hosted.log, booted: try app.boot(from: hosted.log, logger: hosted.logger),
      snapshotInterval: 1_000_000, logger: hosted.logger, onFatal: { Issue.record("the host stopped: \($0)") })
  }

  /// Sends `action` and returns the answer's type (`ack`, `refused` or `error`) with its reason.
  static func send<State, Action>(
    _ action: JSONValue, to scope: String, cseq: Int64, from window: Connection, on host: DaemonHost<State, Action>
  ) async throws -> (type: String, reason: String?) {
    await host.handle(.send(scope: scope, action: action, client: "c", cseq: cseq), from: window)
    switch try await window.queue.messages(untilAnswerTo: cseq).last {
    case .ack?: return ("ack", nil)
    case let .refused(_, _, _, reason)?: return ("refused", reason)
    case let .error(_, message, _)?: return ("error", message)
    default: return ("none", nil)
    }
  }

  @Test func aDescriptionLongerThanTodaysLimitStillBootsAndANewOneIsRefused() async throws {
    var before = Workspace.hosted()
    before.admission = { _ in nil }  // the app as it was before the limit
    let hosted = try InProcessHost(app: before)
    defer { hosted.removeHome() }
    let old = try hosted.makeHost()
    let writer = await hosted.window("w", on: old, attachedTo: "board")
    #expect(try await Self.send(["addCard": ["title": "Long"]], to: "board", cseq: 1, from: writer, on: old).type == "ack")
    let long = String(repeating: "d", count: 20_000)
    let edit: JSONValue = ["editCard": ["id": 1, "description": .string(long)]]
    #expect(try await Self.send(edit, to: "board", cseq: 2, from: writer, on: old).type == "ack")
    await old.afterQueuedCommits()

    let now = try Self.host(Workspace.hosted(), on: hosted)
    #expect(await now.committedNow.state.board.present.cards[id: 1]?.description == long)
    let window = await hosted.window("w2", pid: 2, on: now, attachedTo: "board")
    let again = try await Self.send(["editCard": ["id": 1, "description": .string(long + "!")]], to: "board", cseq: 3, from: window, on: now)
    #expect(again.type == "refused")
    #expect(again.reason == "a description is at most 10,000 characters; this one has 20,001")
  }

  @Test func aStateAlreadyTooLargeToSendStopsOnlyWhatWouldGrowIt() async throws {
    var before = SampleApp.hosted
    before.scopes = []  // no scope to measure: the notes outgrow a line, as a log from before the limit could
    let hosted = try InProcessHost(app: before)
    defer { hosted.removeHome() }
    let old = try hosted.makeHost()
    for _ in 1...4 {
      await old.reduceAndQueueOwn(.notes(.add(text: String(repeating: "n", count: 300_000))), user: "t", scope: "notes")
    }
    await old.afterQueuedCommits()

    let now = try Self.host(SampleApp.hosted, on: hosted)
    let window = await hosted.window("w2", pid: 2, on: now, attachedTo: "counter")
    // An action elsewhere goes through; one that grows the notes does not; one that shrinks them does.
    #expect(try await Self.send(["increment": [:]], to: "counter", cseq: 10, from: window, on: now).type == "ack")
    await now.handle(.attach(scope: "notes", since: nil), from: window)
    await now.reduceAndQueueOwn(.notes(.add(text: "more")), user: "t", scope: "notes")
    await now.afterQueuedCommits()
    #expect(await now.committedNow.state.notes.count == 4)
    // The window could not attach the notes: too large to send, it is told so.
    _ = try await window.queue.messages { if case .error(.unknownScope, _, _) = $0 { true } else { false } }
    await now.reduceAndQueueOwn(.notes(.remove(id: 1)), user: "t", scope: "notes")
    await now.afterQueuedCommits()
    try await Task.sleep(for: .milliseconds(50))
    await now.afterQueuedCommits()
    #expect(await now.committedNow.state.notes.count == 3)
  }
}
