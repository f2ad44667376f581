import ConcordWire
import Foundation
import Testing

@testable import ConcordServer

/// A window that had a state from another log (the daemon's log was replaced meanwhile) is given
/// the whole state, marked so: its cached state and seq mean nothing here.
@Suite struct ReplacedLogTests {
  @Test func windowsFromAnotherLogAreGivenTheWholeStateMarkedAsFromAReplacedLog() async throws {
    let hosted = try InProcessHost(app: UnencodableStateTests.app)
    defer { hosted.removeHome() }
    let host = try hosted.makeHost()
    let writer = await hosted.window("writer", on: host, attachedTo: "reading")
    await host.handle(.send(scope: "reading", action: ["set": ["_0": 7]], client: "writer", cseq: 1), from: writer)
    _ = try await writer.queue.messages { $0.typeName == "ack" }

    var answers: [ServerMessage] = []
    for (id, pid) in [("first", 2), ("second", 3)] as [(String, Int32)] {
      let window = await hosted.window(
        id, pid: pid, on: host, attachedTo: "reading", since: LogPosition(logID: "a-log-that-is-gone", seq: 1))
      let first = try await window.queue.messages { ["snapshot", "update", "error"].contains($0.typeName) }.last
      answers += first.map { [$0] } ?? []
    }
    for answer in answers {
      guard case let .snapshot(scope, _, state, logReplaced) = answer else {
        Issue.record("expected a snapshot, got \(answer)")
        continue
      }
      #expect(scope == "reading")
      #expect(state == 7)
      #expect(logReplaced)
    }
  }
}
