import ConcordLog
import ConcordJSON
import Workspace
import ConcordWire
import Foundation
import SampleApp
import Synchronization
import Testing

@testable import ConcordServer

/// The wall clock can be stepped back (NTP, a person fixing the date); the log's times cannot.
@Suite struct ActionTimeTests {
  @Test func aClockSteppedBackNeverLogsAnActionBeforeTheLastOne() async throws {
    let hosted = try InProcessHost(app: SampleApp.hosted)
    defer { hosted.removeHome() }
    let log = hosted.log
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let clock = Mutex(start)

    func host() throws -> DaemonHost<SampleApp.State, SampleApp.Action> {
      try hosted.makeHost(wallClock: { clock.withLock { $0 } }, onFatal: { Issue.record("the host stopped: \($0)") })
    }
    func increment(_ host: DaemonHost<SampleApp.State, SampleApp.Action>, cseq: Int64) async throws {
      let window = await hosted.window("w\(cseq)", on: host, attachedTo: "counter")
      await host.handle(.send(scope: "counter", action: ["increment": [:]], client: "c", cseq: cseq), from: window)
      try await waitUntil { log.lastSeq > 0 && (try? log.entry(client: "c", cseq: cseq)) != nil }
    }

    let first = try host()
    clock.withLock { $0 = start.addingTimeInterval(10) }
    try await increment(first, cseq: 1)
    // An hour back: the next action keeps the last time rather than going back in the log.
    clock.withLock { $0 = start.addingTimeInterval(10 - 3600) }
    try await increment(first, cseq: 2)
    #expect(try log.entry(client: "c", cseq: 2)?.record.at == start.addingTimeInterval(10))

    // A restart with the clock still behind starts from the log's last time, not the clock's.
    let second = try host()
    try await increment(second, cseq: 3)
    #expect(try log.entry(client: "c", cseq: 3)?.record.at == start.addingTimeInterval(10))
    // Once the clock passes the last time again, actions take the clock's time.
    clock.withLock { $0 = start.addingTimeInterval(20) }
    try await increment(second, cseq: 4)
    #expect(try log.entry(client: "c", cseq: 4)?.record.at == start.addingTimeInterval(20))

    var times: [Date] = []
    try log.forEachEntry { times.append($0.record.at) }
    #expect(times == times.sorted(), "the log's times go back: \(times)")
    #expect(try log.verify().isSound)
  }

  /// A window's claim of when an offline action was typed is the app's time for it, never
  /// after the daemon's; the log entry keeps the daemon's time. A claim from the future is the
  /// daemon's now, and a malformed one is refused as a bad message.
  @Test func aTypedTimeIsTheAppsAndNeverLaterThanNow() async throws {
    let hosted = try InProcessHost(app: Workspace.hosted())
    defer { hosted.removeHome() }
    let log = hosted.log
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let host = try hosted.makeHost(wallClock: { now }, onFatal: { Issue.record("the host stopped: \($0)") })
    let window = await hosted.window("w", on: host, attachedTo: "board")
    for (cseq, typed) in [(Int64(1), now.addingTimeInterval(-3_600)), (2, now.addingTimeInterval(86_400)), (3, nil)] {
      await host.handle(.send(scope: "board", action: ["addCard": ["title": .string("card \(cseq)")]], client: "c", cseq: cseq, typedAt: typed), from: window)
    }
    try await waitUntil { (try? log.entry(client: "c", cseq: 3)) != nil }
    for (cseq, expected) in [(Int64(1), now.addingTimeInterval(-3_600)), (2, now), (3, now)] {
      let record = try #require(try log.entry(client: "c", cseq: cseq)).record
      #expect(record.at == now, "the entry is logged at the daemon's time")
      let action = try JSONValue(parsing: record.action)
      guard case let .object(outer)? = Optional(action), case let .object(board)? = outer["board"], case let .string(at)? = board["at"] else {
        Issue.record("no time in \(record.action)")
        continue
      }
      #expect(try JSONDate.date(from: at) == expected, "cseq \(cseq): \(at)")
    }
    #expect(throws: (any Error).self) {
      try ClientMessage(line: Array(#"{"type":"send","scope":"board","client":"c","cseq":4,"action":{"undo":{}},"typed_at":"yesterday"}"#.utf8))
    }
  }

  private func waitUntil(_ condition: () -> Bool) async throws {
    for _ in 0..<400 where !condition() { try await Task.sleep(for: .milliseconds(5)) }
    #expect(condition(), "timed out")
  }
}
