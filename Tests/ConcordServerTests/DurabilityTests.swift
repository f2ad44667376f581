import ConcordWire
import DaemonDriving
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Acknowledged means durable, exactly once, whatever happens to the daemon afterwards.
@Suite(.serialized) struct DurabilityTests {
  static func add(_ amount: Int) -> JSONValue { .object(["add": .object(["amount": .number(Double(amount))])]) }

  @Test func anAcknowledgedActionSurvivesKillNine() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    let window = try LineSocket(path: daemon.socketPath)
    try window.hello()
    _ = try window.attach("counter")
    try window.send(.send(scope: "counter", action: Self.add(5), client: "w", cseq: 1))
    try window.receive { if case .ack(_, 1, _) = $0 { true } else { false } }
    daemon.kill9()

    let restarted = try DaemonUnderTest(home: daemon.home).start()
    let again = try LineSocket(path: restarted.socketPath)
    try again.hello()
    #expect(try again.attach("counter") == .number(5))
  }

  @Test func aRetriedActionGetsTheOriginalAnswerAndChangesNothing() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    let window = try LineSocket(path: daemon.socketPath)
    try window.hello()
    _ = try window.attach("counter")
    try window.send(.send(scope: "counter", action: Self.add(2), client: "w", cseq: 7))
    let first = try window.receive { if case .ack(_, 7, _) = $0 { true } else { false } }.last
    // The window did not see its ack (say it reconnected) and sends the same action again.
    let retry = try LineSocket(path: daemon.socketPath)
    try retry.hello()
    _ = try retry.attach("counter")
    try retry.send(.send(scope: "counter", action: Self.add(2), client: "w", cseq: 7))
    let second = try retry.receive { if case .ack(_, 7, _) = $0 { true } else { false } }.last
    #expect(first == second)
    try retry.send(.detach(scope: "counter"))
    try retry.receive { $0 == .detached(scope: "counter") }
    #expect(try retry.attach("counter") == .number(2))
  }

  @Test func twentyClientsKilledMidStreamLoseNoAcknowledgedAction() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    let acknowledged = Acknowledged()
    let clients = 20
    let threads = (0..<clients).map { client in
      Thread {
        guard let peer = try? LineSocket(path: daemon.socketPath), (try? peer.hello()) != nil,
          (try? peer.attach("counter")) != nil
        else { return }
        for cseq in 1...10_000 {
          guard (try? peer.send(.send(scope: "counter", action: Self.add(1), client: "c\(client)", cseq: Int64(cseq)))) != nil,
            let answers = try? peer.receive(until: { if case .ack(_, Int64(cseq), _) = $0 { true } else { false } }, timeout: 5)
          else { return }
          if case .ack? = answers.last { acknowledged.add() }
        }
      }
    }
    threads.forEach { $0.start() }
    // Let them run, then pull the plug in the middle of the stream.
    let deadline = Date().addingTimeInterval(60)
    while acknowledged.count < 300 {
      guard Date() < deadline else {
        Issue.record("only \(acknowledged.count) acknowledgements in a minute: \(daemon.output)")
        return
      }
      usleep(10_000)
    }
    daemon.kill9()
    usleep(200_000)
    let acked = acknowledged.count

    let restarted = try DaemonUnderTest(home: daemon.home).start()
    let window = try LineSocket(path: restarted.socketPath)
    try window.hello()
    guard let counter = try window.attach("counter").int64 else { Issue.record("no counter"); return }
    // Every acknowledged action is there; actions in flight at the kill may be there too, but
    // nothing is there twice (each adds 1, and no client sent more than its cseqs).
    #expect(Int(counter) >= acked)
    #expect(Int(counter) <= acked + clients)
    #expect(restarted.terminate() == 0)
  }
}

/// A counter several threads bump.
final class Acknowledged: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  func add() { lock.withLock { value += 1 } }
  var count: Int { lock.withLock { value } }
}
