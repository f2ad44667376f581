import ConcordWire
import DaemonDriving
import Foundation
import SampleApp
import Testing

@testable import ConcordServer

/// Exactly once is per account: `(user, client, cseq)`. A client id belongs to the account that
/// first sent with it, so another account that knows or guesses it can neither read that
/// account's answers nor make its later actions come back "acknowledged" without being applied.
@Suite struct ClientOwnershipTests {
  static let increment: JSONValue = ["increment": [:]]

  @Test func anotherAccountCannotUseSomeoneElsesClientID() async throws {
    let hosted = try InProcessHost(app: SampleApp.hosted)
    defer { hosted.removeHome() }
    var host = try hosted.makeHost()
    let alice = await hosted.window("alice", on: host, attachedTo: "counter")
    await host.handle(.send(scope: "counter", action: Self.increment, client: "c-alice", cseq: 1), from: alice)
    let aliceFirst = try await alice.queue.messages(untilAnswerTo: 1).last
    guard case .ack(_, 1, _)? = aliceFirst else { Issue.record("alice's action: \(String(describing: aliceFirst))"); return }

    // Mallory (another uid) replays alice's pair and tries her next cseq first.
    let mallory = await hosted.window("mallory", pid: 2, uid: 65534, on: host, attachedTo: "counter")
    for cseq: Int64 in [1, 2] {
      await host.handle(.send(scope: "counter", action: Self.increment, client: "c-alice", cseq: cseq), from: mallory)
      let answer = try await mallory.queue.messages(untilAnswerTo: cseq).last
      guard case let .error(code, message, _)? = answer else {
        Issue.record("mallory was answered \(String(describing: answer)) for alice's client id")
        continue
      }
      #expect(code == .badMessage)
      #expect(message.contains("belongs to another account"))
    }

    // Alice's own cseq 2 is applied, not answered with anything of mallory's.
    await host.handle(.send(scope: "counter", action: Self.increment, client: "c-alice", cseq: 2), from: alice)
    let aliceSecond = try await alice.queue.messages(untilAnswerTo: 2).last
    guard case .ack(_, 2, _)? = aliceSecond else { Issue.record("alice's second: \(String(describing: aliceSecond))"); return }
    #expect(await host.committedNow.state.counter == 2)

    // A restarted daemon knows whose id it is from the log.
    await host.afterQueuedCommits()
    host = try hosted.makeHost()
    let malloryAgain = await hosted.window("mallory2", pid: 3, uid: 65534, on: host, attachedTo: "counter")
    await host.handle(.send(scope: "counter", action: Self.increment, client: "c-alice", cseq: 3), from: malloryAgain)
    let after = try await malloryAgain.queue.messages(untilAnswerTo: 3).last
    guard case .error(.badMessage, _, 3)? = after else { Issue.record("after a restart: \(String(describing: after))"); return }
    #expect(await host.committedNow.state.counter == 2)
  }

  /// The owner of a client id from before a restart is looked up in the log, in its first
  /// entry. When that entry cannot be read, the action is not taken on trust: it is answered
  /// `unavailable`, saying the log could not be read, and nothing is applied.
  @Test func anUnreadableFirstEntryIsNotTakenOnTrust() async throws {
    let hosted = try InProcessHost(app: SampleApp.hosted)
    defer { hosted.removeHome() }
    let first = try hosted.makeHost()
    let alice = await hosted.window("alice", on: first, attachedTo: "counter")
    await first.handle(.send(scope: "counter", action: Self.increment, client: "c-alice", cseq: 1), from: alice)
    guard case .ack(_, 1, let seq)? = try await alice.queue.messages(untilAnswerTo: 1).last else {
      Issue.record("alice's first action was not acknowledged")
      return
    }
    // Someone else acts after her, and the state is kept in a snapshot: the restarted daemon
    // boots without reading alice's entry, which then stops opening.
    await first.handle(.send(scope: "counter", action: Self.increment, client: "c-bob", cseq: 1), from: alice)
    _ = try await alice.queue.messages(untilAnswerTo: 1)
    await first.drain()
    let (last, state) = await first.committedNow
    try hosted.log.saveSnapshot(state, at: last, by: hosted.app.appVersion)
    try LogTamper.run(LogTamper.changeFirstCiphertextByte(ofEntry: Int(seq)), on: hosted.home)

    let second = try hosted.makeHost()
    let again = await hosted.window("alice-2", on: second, attachedTo: "counter")
    await second.handle(.send(scope: "counter", action: Self.increment, client: "c-alice", cseq: 2), from: again)
    let answer = try await again.queue.messages(untilAnswerTo: 2).last
    guard case let .error(code, message, cseq)? = answer else {
      Issue.record("answered \(String(describing: answer))")
      return
    }
    #expect(code == .unavailable && cseq == 2)
    #expect(message.contains("the log could not be read"), "\(message)")
    #expect(await second.committedNow.state.counter == 2)
  }
}
