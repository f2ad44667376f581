import ConcordApp
import Concord
import ConcordWire
import Foundation
import Logging
import Testing

@testable import ConcordServer

/// An app whose state JSON cannot carry (a reading that overflowed to infinity): every window of
/// the scope shows null, whether it was attached when the state changed or attaches to the scope
/// later, and the scope recovers once the state is finite again.
@Suite struct UnencodableStateTests {
  struct Gauge: Codable, Sendable, Equatable {
    var reading: Double = 1
  }

  enum GaugeAction: Codable, Sendable, Equatable {
    case set(Double)
    case overflow
    case underflow
  }

  static let app = HostedApp(
    name: "Gauge", version: 1, initialState: Gauge(),
    reducer: Reducer<Gauge, GaugeAction, Void> { state, action, _ in
      switch action {
      case let .set(value): state.reading = value
      case .overflow: state.reading = .infinity
      case .underflow: state.reading = -.infinity
      }
      return .none
    },
    environment: (),
    scopes: [.scope("reading", state: \.reading, action: { (action: GaugeAction) in action })])

  @Test func aStateThatCannotBeEncodedShowsAsNullToEveryWindowAlike() async throws {
    let hosted = try InProcessHost(app: Self.app)
    defer { hosted.removeHome() }
    let host = try hosted.makeHost()
    let early = await hosted.window("early", on: host, attachedTo: "reading")
    #expect(try await early.queue.messages { $0.typeName == "snapshot" }.last?.state == 1)

    await host.handle(.send(scope: "reading", action: ["overflow": [:]], client: "early", cseq: 1), from: early)
    let afterOverflow = try await early.queue.messages { $0.typeName == "ack" }
    #expect(afterOverflow.contains { $0.isUpdate(resettingTo: .null) }, "the attached window shows null")

    // Nobody watches the scope for a while; a window attaching then is given the same null,
    // not told that the scope names nothing.
    await host.handle(.detach(scope: "reading"), from: early)
    let late = await hosted.window("late", pid: 2, on: host, attachedTo: "reading")
    // Not an error: the answer is a snapshot of null.
    let lateAnswer = try await late.queue.messages { ["snapshot", "error"].contains($0.typeName) }
    #expect(lateAnswer.last?.state == .null)

    // Once the reading is finite again, the window has it.
    await host.handle(.send(scope: "reading", action: ["set": ["_0": 2]], client: "late", cseq: 1), from: late)
    #expect(try await late.queue.messages { $0.typeName == "ack" }.contains { $0.isUpdate(resettingTo: 2) })
  }

  /// An action of the daemon's own (an effect's) that JSON cannot carry is dropped, with an error
  /// in the daemon's log, and takes no daemon cseq: the next one goes to the log with the next
  /// number, so the daemon's numbering never runs past the log's.
  @Test func anEffectsActionThatCannotBeEncodedIsDroppedAndTakesNoCseq() async throws {
    let lines = LogLines()
    let hosted = try InProcessHost(app: Self.app, logger: Logger(label: "t") { _ in LineRecorder(lines: lines) })
    defer { hosted.removeHome() }
    let host = try hosted.makeHost()
    await host.reduceAndQueueOwn(.set(.infinity), user: "concordd", scope: "")
    #expect(await host.cseqs.daemon == 0)
    #expect(lines.all.contains { $0.contains("could not be encoded for the log") })

    await host.reduceAndQueueOwn(.set(5), user: "concordd", scope: "")
    await host.afterQueuedCommits()
    #expect(await host.cseqs.daemon == 1)
    #expect(try hosted.log.entry(client: "concordd", cseq: 1)?.record.action == #"{"set":{"_0":5}}"#)
  }

  /// The daemon's log says a scope shows null once, when it starts to, and not at every commit
  /// that keeps it unencodable; it says so again if the scope recovers and fails anew.
  @Test func theDaemonLogSaysAScopeShowsNullOnceAndNotAtEveryCommit() async throws {
    let lines = LogLines()
    let hosted = try InProcessHost(app: Self.app, logger: Logger(label: "t") { _ in LineRecorder(lines: lines) })
    defer { hosted.removeHome() }
    let host = try hosted.makeHost()
    let window = await hosted.window("w", on: host, attachedTo: "reading")

    var cseq: Int64 = 0
    func send(_ action: JSONValue) async throws {
      cseq += 1
      await host.handle(.send(scope: "reading", action: action, client: "w", cseq: cseq), from: window)
      _ = try await window.queue.messages { $0.typeName == "ack" }
    }
    for _ in 0..<3 {
      try await send(["overflow": [:]])
      try await send(["underflow": [:]])
    }
    #expect(lines.all.filter { $0.contains("could not be encoded") }.count == 1)

    try await send(["set": ["_0": 3]])
    try await send(["overflow": [:]])
    #expect(lines.all.filter { $0.contains("could not be encoded") }.count == 2)
    #expect(lines.all.filter { $0.contains("can be encoded again") }.count == 1)
  }
}

extension ServerMessage {
  /// The state of a snapshot.
  fileprivate var state: JSONValue? {
    if case let .snapshot(_, _, state, _) = self { state } else { nil }
  }

  /// True for an update that replaces the whole state with `value`.
  fileprivate func isUpdate(resettingTo value: JSONValue) -> Bool {
    if case let .update(_, _, .reset(state)) = self { state == value } else { false }
  }
}
