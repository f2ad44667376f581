import Concord
import ConcordApp
import ConcordLog
import ConcordPlatform
import ConcordWire
import Foundation
import Testing

@testable import ConcordClient

/// A person in a window: what they type shows at once, the daemon there or not, and what waited
/// offline reaches the daemon exactly once when it is back. The daemon here is `ScriptedDaemon`,
/// written from the wire schema.
@Suite(.serialized) struct WindowSessionTests {
  struct Counter: Codable, Equatable, Sendable {
    var count: Int
  }

  enum CounterAction: Codable, Equatable, Sendable {
    case add(amount: Int)
    /// Adds the count, through an action fed back with `.send`: the window must reduce it too.
    case double
  }

  static let counter = Reducer<Counter, CounterAction, Void> { state, action, _ in
    switch action {
    case let .add(amount):
      guard state.count + amount >= 0 else { return .refuse("the count cannot go below zero") }
      state.count += amount
      return .none
    case .double:
      return .send(.add(amount: state.count))
    }
  }

  /// The app as a daemon would host it: its reducer is what the window runs to show an action
  /// before the daemon has it.
  static let hosted = HostedApp(
    name: "counter", version: 1, initialState: Counter(count: 0), reducer: counter, environment: (),
    scopes: [.scope("counter", state: \.self, action: { (action: CounterAction) in action })])

  static let app = ClientApp(
    hosting: hosted,
    scopes: [
      .scope(
        "counter", render: { (state: Counter, _) in ["\(state.count)"] },
        commands: [WindowCommand<CounterAction>("double", help: "double the count") { _ in .double }])
    ])

  static let logID = String(repeating: "ab", count: 16)

  @Test func anActionTypedOfflineShowsAtOnceAndReachesTheDaemonOnceWhenItIsBack() throws {
    let home = ConcordHome(TemporaryHome.make())
    defer { try? FileManager.default.removeItem(at: home.directory) }
    // The window saw the count at 3 before the daemon went away.
    try Outbox.open(home: home).remember(SeenState(scope: "counter", logID: Self.logID, seq: 5, state: ["count": 3]))

    var session: WindowSession? = try WindowSession(home: home, scope: "counter", app: Self.app)
    #expect(try session?.tick().isEmpty == true, "with no daemon there is nothing to say yet")
    #expect(session?.readShown()?.state == ["count": 3])

    // Typed offline: shown at once with what it fed back (3 doubled), and queued.
    let typed = try #require(try session?.submit(["double": [:]]))
    #expect(typed.events == [.stateChanged, .queued(cseq: typed.cseq, waiting: 1)])
    #expect(session?.readShown()?.state == ["count": 6])

    // The daemon is back, at the state the window last saw: the queue is sent once, answered.
    let daemon = try ScriptedDaemon(socket: home.socket, logID: Self.logID, count: 3, seq: 5)
    defer { daemon.stop() }
    let events = try Self.events(of: session!) { if case .resent = $0 { true } else { false } }
    let resent = events.compactMap { event -> String? in
      if case let .resent(_, outcome, entry) = event { outcome.said(entry: entry) } else { nil }
    }
    #expect(resent == ["applied as entry 6"], "events: \(events)")
    #expect(events.contains(.connected(user: "tester", logID: Self.logID)))
    #expect(session?.readWaitingCount() == 0)
    #expect(session?.readShown()?.state == ["count": 6])

    // The window is closed and opened again: it shows what it last saw, and sends nothing twice.
    session = nil
    let again = try WindowSession(home: home, scope: "counter", app: Self.app)
    #expect(again.readShown()?.state == ["count": 6])
    let reopened = try Self.events(of: again) { $0 == .stateChanged }
    #expect(reopened.contains(.connected(user: "tester", logID: Self.logID)), "events: \(reopened)")
    #expect(reopened.contains(.stateChanged))
    #expect(again.seq == 7)
    #expect(again.readShown()?.state == ["count": 6])
    #expect(daemon.model.withLock { $0.sends.count } == 1)
  }

  /// Ticks `session` and reads its socket until an event `until` looks for, for at most 10 s.
  static func events(
    of session: WindowSession, until: (WindowSession.Event) -> Bool
  ) throws -> [WindowSession.Event] {
    var events: [WindowSession.Event] = []
    let deadline = Date().addingTimeInterval(10)
    while !events.contains(where: until), Date() < deadline {
      events += try session.tick()
      events += try session.socketReadable()
      Thread.sleep(forTimeInterval: 0.02)
    }
    return events
  }

  @Test func anActionTheReducerWouldRefuseShowsNothingButStaysQueuedForTheDaemon() throws {
    let home = ConcordHome(TemporaryHome.make())
    defer { try? FileManager.default.removeItem(at: home.directory) }
    try Outbox.open(home: home).remember(SeenState(scope: "counter", logID: Self.logID, seq: 1, state: ["count": 1]))
    let session = try WindowSession(home: home, scope: "counter", app: Self.app)
    _ = try session.tick()
    // The daemon decides: the window only shows what its reducer can tell.
    _ = try session.submit(["add": ["amount": -5]])
    #expect(session.readShown()?.state == ["count": 1])
    #expect(session.readWaitingCount() == 1)
  }
}
