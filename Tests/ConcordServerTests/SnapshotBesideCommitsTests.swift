import ConcordApp
import Concord
import ConcordLog
import Dispatch
import Synchronization
import Testing

@testable import ConcordServer

/// A snapshot of a large state takes milliseconds to encode and seal. Windows' actions must not
/// wait for it: their commits go on while the snapshot is made, and the snapshot is stored once
/// it is ready.
@Suite(.serialized) struct SnapshotBesideCommitsTests {
  /// Holds the encoding of a whole `Tally` (what a snapshot encodes) until the test lets it go:
  /// a snapshot that takes as long as the test says.
  final class EncodingGate: Sendable {
    private let held = Mutex(false)
    private let released = DispatchSemaphore(value: 0)
    private let entered = DispatchSemaphore(value: 0)

    func hold() { held.withLock { $0 = true } }

    /// Called by the encoding: waits while the gate is held.
    func pass() {
      guard held.withLock({ $0 }) else { return }
      entered.signal()
      released.wait()
    }

    /// Waits until an encoding is held at the gate.
    func awaitEncoding() async -> Bool {
      for _ in 0..<2000 {
        if entered.wait(timeout: .now()) == .success { return true }
        try? await Task.sleep(for: .milliseconds(5))
      }
      return false
    }

    func release() {
      held.withLock { $0 = false }
      released.signal()
    }

    /// While set, encoding a whole `Tally` fails, as a state JSON cannot carry does.
    let failing = Mutex(false)
  }

  struct Unencodable: Error {}

  static let gate = EncodingGate()

  struct Tally: Codable, Sendable, Equatable {
    var count = 0

    init() {}

    func encode(to encoder: any Encoder) throws {
      SnapshotBesideCommitsTests.gate.pass()
      if SnapshotBesideCommitsTests.gate.failing.withLock({ $0 }) { throw Unencodable() }
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(count, forKey: .count)
    }
  }

  enum TallyAction: Codable, Sendable, Equatable {
    case add
  }

  static let app = HostedApp(
    name: "Tally", version: 1, initialState: Tally(),
    reducer: Reducer<Tally, TallyAction, Void> { state, _, _ in
      state.count += 1
      return .none
    },
    environment: (),
    scopes: [.scope("count", state: \.count, action: { (action: TallyAction) in action })])

  @Test func actionsAreCommittedWhileASnapshotIsBeingMade() async throws {
    let hosted = try InProcessHost(app: Self.app)
    defer { hosted.removeHome() }
    let host = try hosted.makeHost(snapshotInterval: 1)
    let window = await hosted.window("w", on: host, attachedTo: "count")

    // The first commit starts a snapshot, whose encoding is held.
    Self.gate.hold()
    await host.handle(.send(scope: "count", action: ["add": [:]], client: "w", cseq: 1), from: window)
    _ = try await window.queue.messages(untilAnswerTo: 1)
    #expect(await Self.gate.awaitEncoding(), "the snapshot after the first commit was not started")

    // Meanwhile a second action is committed and acknowledged.
    await host.handle(.send(scope: "count", action: ["add": [:]], client: "w", cseq: 2), from: window)
    let answer = try await window.queue.messages(untilAnswerTo: 2).last
    Self.gate.release()
    guard case .ack(_, 2, 2)? = answer else {
      Issue.record("the second action waited for the snapshot: \(String(describing: answer))")
      return
    }

    // The held snapshot is stored once it is made; a restart boots from it.
    await host.afterQueuedCommits()
    let booted = try Self.app.boot(from: hosted.log, logger: hosted.logger)
    #expect(booted.snapshotSeq == 1)
    #expect(booted.seq == 2 && booted.state.count == 2)
  }

  /// A snapshot that cannot be made (its state does not encode) is reported and given up;
  /// actions go on being committed, and the next snapshot is taken.
  @Test func aSnapshotThatFailsLeavesTheNextOneToBeTaken() async throws {
    let hosted = try InProcessHost(app: Self.app)
    defer { hosted.removeHome() }
    let host = try hosted.makeHost(snapshotInterval: 1)
    let window = await hosted.window("w", on: host, attachedTo: "count")

    Self.gate.failing.withLock { $0 = true }
    await host.handle(.send(scope: "count", action: ["add": [:]], client: "w", cseq: 1), from: window)
    let first = try await window.queue.messages(untilAnswerTo: 1).last
    await host.afterQueuedCommits()
    Self.gate.failing.withLock { $0 = false }
    guard case .ack(_, 1, 1)? = first else {
      Issue.record("the action was not acknowledged: \(String(describing: first))")
      return
    }
    #expect(try Self.app.boot(from: hosted.log, logger: hosted.logger).snapshotSeq == 0)

    await host.handle(.send(scope: "count", action: ["add": [:]], client: "w", cseq: 2), from: window)
    _ = try await window.queue.messages(untilAnswerTo: 2)
    await host.afterQueuedCommits()
    let booted = try Self.app.boot(from: hosted.log, logger: hosted.logger)
    #expect(booted.snapshotSeq == 2, "the snapshot after the failed one was not taken")
    #expect(booted.seq == 2 && booted.state.count == 2)
  }
}
