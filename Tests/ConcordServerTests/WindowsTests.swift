import ConcordWire
import DaemonDriving
import Foundation
import Testing

/// Several windows on one daemon: what one does, the others see — and only where it matters.
@Suite(.serialized) struct WindowsTests {
  @Test func anActionFromOneWindowReachesTheWindowsWhoseScopeChanged() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }

    // Alice writes a first note so that there is a note:1 to look at.
    let writer = try LineSocket(path: daemon.socketPath)
    try writer.hello()
    #expect(try writer.attach("notes") == .array([]))
    try writer.send(.send(scope: "notes", action: .object(["add": .object(["text": .string("milk")])]), client: "writer", cseq: 1))
    try writer.receive { if case .ack(_, 1, _) = $0 { true } else { false } }

    let list = try LineSocket(path: daemon.socketPath)
    try list.hello()
    let listState = try list.attach("notes")
    #expect(listState.arrayCount == 1)
    let card = try LineSocket(path: daemon.socketPath)
    try card.hello()
    let cardBefore = try card.attach("note:1")
    #expect(cardBefore["text"] == .string("milk"))
    let counter = try LineSocket(path: daemon.socketPath)
    try counter.hello()
    #expect(try counter.attach("counter") == .number(0))

    // The writer edits note 1 through the notes scope's sibling, the note scope.
    try writer.send(.attach(scope: "note:1", since: nil))
    try writer.receive { if case .snapshot("note:1", _, _, _) = $0 { true } else { false } }
    try writer.send(.send(scope: "note:1", action: .object(["edit": .object(["text": .string("oat milk")])]), client: "writer", cseq: 2))
    let acked = try writer.receive { if case .ack(_, 2, _) = $0 { true } else { false } }
    guard case let .ack(_, _, seq)? = acked.last else { return }

    // The card window and the list window see the change, as a diff from what they had.
    let cardState = try card.stateAfterUpdate(of: "note:1", from: cardBefore)
    #expect(cardState["text"] == .string("oat milk"))
    let newList = try list.stateAfterUpdate(of: "notes", from: listState)
    #expect(newList.arrayElement(0)?["text"] == .string("oat milk"))

    // The counter window's scope did not change: the next thing it hears is the answer to its ping.
    try counter.send(.ping)
    #expect(try counter.receive() == .pong)
    #expect(seq > 0)

    // A second note does not concern the card window on note 1.
    try writer.send(.send(scope: "notes", action: .object(["add": .object(["text": .string("eggs")])]), client: "writer", cseq: 3))
    try writer.receive { if case .ack(_, 3, _) = $0 { true } else { false } }
    let longerList = try list.stateAfterUpdate(of: "notes", from: newList)
    #expect(longerList.arrayCount == 2)
    try card.send(.ping)
    #expect(try card.receive() == .pong)
  }

  @Test func aRefusedActionChangesNothingAndTheSenderLearnsWhy() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    let window = try LineSocket(path: daemon.socketPath)
    try window.hello()
    #expect(try window.attach("counter") == .number(0))
    try window.send(.send(scope: "counter", action: .object(["decrement": .object([:])]), client: "w", cseq: 1))
    let answer = try window.receive { if case .refused = $0 { true } else { false } }
    guard case let .refused(client, cseq, seq?, reason)? = answer.last else {
      Issue.record("expected a refusal with its seq, got \(String(describing: answer.last))")
      return
    }
    #expect(client == "w" && cseq == 1 && reason == "the counter is already at zero")
    try window.send(.ping)
    #expect(try window.receive() == .pong)
    // The refusal is in the log, as its newest entry, and the counter is as it was.
    let reader = try LineSocket(path: daemon.socketPath)
    #expect(try reader.hello().seq == seq)
    #expect(try reader.attach("counter") == 0)
  }
}

extension LineSocket {
  /// Reads until the scope's next update and applies it to `state`.
  func stateAfterUpdate(of scope: String, from state: JSONValue, timeout: TimeInterval = 10) throws -> JSONValue {
    let seen = try receive(until: { if case .update(scope, _, _) = $0 { true } else { false } }, timeout: timeout)
    guard case let .update(_, _, change)? = seen.last else { return state }
    switch change {
    case let .diff(diff): return try diff.apply(to: state)
    case let .reset(whole): return whole
    }
  }
}
