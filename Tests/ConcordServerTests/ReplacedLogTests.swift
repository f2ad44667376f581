import ConcordLog
import ConcordWire
import Foundation
import Logging
import Testing

@testable import ConcordServer

/// A window that had a state from another log (the daemon's log was replaced meanwhile) is given
/// the whole state, marked so: its cached state and seq mean nothing here.
@Suite struct ReplacedLogTests {
  @Test func windowsFromAnotherLogAreGivenTheWholeStateMarkedAsFromAReplacedLog() async throws {
    let home = DaemonProcess.makeHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let log = try ActionLog.open(at: home.appending(path: "log.sqlite"), key: .file(home.appending(path: "key")))
    let app = UnencodableStateTests.app
    let host = Host(
      app: app, log: log, booted: try app.boot(from: log, logger: Logger(label: "t")),
      snapshotInterval: 1_000_000, logger: Logger(label: "t"), onFatal: { _ in })
    let writer = WindowLink(id: "writer", peer: PeerCredentials(pid: 1, uid: getuid(), gid: getgid()), close: {})
    _ = await host.welcome(for: writer)
    await host.handle(.attach(scope: "reading", since: nil), from: writer)
    await host.handle(.send(scope: "reading", action: ["set": ["_0": 7]], client: "writer", cseq: 1), from: writer)
    _ = try await writer.outbox.messages { $0.typeName == "ack" }

    var answers: [ServerMessage] = []
    for (id, pid) in [("first", 2), ("second", 3)] {
      let window = WindowLink(id: id, peer: PeerCredentials(pid: Int32(pid), uid: getuid(), gid: getgid()), close: {})
      _ = await host.welcome(for: window)
      await host.handle(
        .attach(scope: "reading", since: LogPosition(logID: "a-log-that-is-gone", seq: 1)), from: window)
      answers += try await window.outbox.messages { ["snapshot", "update", "error"].contains($0.typeName) }
        .filter { ["snapshot", "update", "error"].contains($0.typeName) }
    }
    #expect(answers.count == 2)
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
