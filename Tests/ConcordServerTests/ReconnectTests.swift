import ConcordWire
import DaemonDriving
import Foundation
import Testing

/// A window that comes back, and a window that never answers.
@Suite(.serialized) struct ReconnectTests {
  /// A window that comes back to a scope whose parameter names nothing any more (the note
  /// removed while it was away, as a column renamed) is told so as a window that watched it was:
  /// its state is null, and it stays attached. Asked for afresh, the scope names nothing.
  @Test func aWindowBackOnAScopeThatIsGoneIsSentNullAndStaysAttached() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    let writer = try LineSocket.window(of: daemon, attachedTo: "notes")
    try writer.send(.send(scope: "notes", action: ["add": ["text": "milk"]], client: "writer", cseq: 1))
    try writer.receive { if case .ack(_, 1, _) = $0 { true } else { false } }

    var reader: LineSocket? = try LineSocket(path: daemon.socketPath)
    let welcome = try reader!.hello()
    try reader!.send(.attach(scope: "note:1", since: nil))
    guard case let .snapshot("note:1", seenSeq, seenState, _)? = try reader!.receive() else { throw DriveError("no snapshot") }
    reader = nil

    try writer.send(.send(scope: "notes", action: ["remove": ["id": 1]], client: "writer", cseq: 2))
    try writer.receive { if case .ack(_, 2, _) = $0 { true } else { false } }

    let back = try LineSocket(path: daemon.socketPath)
    try back.hello()
    try back.send(.attach(scope: "note:1", since: LogPosition(logID: welcome.logID, seq: seenSeq)))
    // Its state, whole or as the change from the one it had, is null.
    let first = try back.receive()
    switch first {
    case let .snapshot("note:1", _, state, _)?: #expect(state == .null)
    case let .update("note:1", _, .reset(state))?: #expect(state == .null)
    case let .update("note:1", _, .diff(diff))?: #expect(try diff.apply(to: seenState) == .null)
    default: Issue.record("expected the scope's state, null; got \(String(describing: first))")
    }
    try back.send(.ping)
    #expect(try back.receive() == .pong)
    // Still attached: detaching it is answered as for any attached scope.
    try back.send(.detach(scope: "note:1"))
    #expect(try back.receive() == .detached(scope: "note:1"))

    let fresh = try LineSocket(path: daemon.socketPath)
    try fresh.hello()
    try fresh.send(.attach(scope: "note:1", since: nil))
    guard case .error(.unknownScope, _, nil)? = try fresh.receive() else { throw DriveError("a fresh attach should name nothing") }
  }

  @Test func aWindowThatReconnectsGetsTheChangesSinceItsSeqNotTheWholeState() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    let writer = try LineSocket(path: daemon.socketPath)
    try writer.hello()
    _ = try writer.attach("notes")
    for (cseq, text) in ["milk", "eggs"].enumerated() {
      try writer.send(.send(scope: "notes", action: ["add": ["text": .string(text)]], client: "writer", cseq: Int64(cseq + 1)))
      try writer.receive { if case .ack(_, Int64(cseq + 1), _) = $0 { true } else { false } }
    }

    // The reader sees two notes at some seq, then goes away.
    var reader: LineSocket? = try LineSocket(path: daemon.socketPath)
    let welcome = try reader!.hello()
    try reader!.send(.attach(scope: "notes", since: nil))
    guard case let .snapshot(_, seenSeq, seenState, _)? = try reader!.receive() else { throw DriveError("no snapshot") }
    #expect(seenState.arrayCount == 2)
    reader = nil

    // Meanwhile, with nobody watching the list, note 1 is edited through its own scope.
    try writer.send(.detach(scope: "notes"))
    try writer.send(.attach(scope: "note:1", since: nil))
    try writer.receive { if case .snapshot("note:1", _, _, _) = $0 { true } else { false } }
    try writer.send(.send(scope: "note:1", action: ["edit": ["text": "bread"]], client: "writer", cseq: 3))
    try writer.receive { if case .ack(_, 3, _) = $0 { true } else { false } }

    // Back, saying where it was: it is sent the diff, which brings its state up to date.
    let back = try LineSocket(path: daemon.socketPath)
    try back.hello()
    try back.send(.attach(scope: "notes", since: LogPosition(logID: welcome.logID, seq: seenSeq)))
    guard case let .update("notes", seq, .diff(diff))? = try back.receive() else {
      throw DriveError("expected an update with a diff")
    }
    #expect(seq > seenSeq)
    let state = try diff.apply(to: seenState)
    #expect(state.arrayCount == 2)
    #expect(state.arrayElement(0)?["text"] == "bread")

    // Nothing changed since: an empty diff says it is up to date.
    let again = try LineSocket(path: daemon.socketPath)
    try again.hello()
    try again.send(.attach(scope: "notes", since: LogPosition(logID: welcome.logID, seq: seq)))
    #expect(try again.receive() == .update(scope: "notes", seq: seq, change: .diff(StateDiff())))

    // A window from another log's history is told so, with the whole state.
    let stranger = try LineSocket(path: daemon.socketPath)
    try stranger.hello()
    try stranger.send(.attach(scope: "notes", since: LogPosition(logID: "another-log", seq: seenSeq)))
    guard case let .snapshot(_, _, whole, replaced)? = try stranger.receive() else { throw DriveError("no snapshot") }
    #expect(replaced)
    #expect(whole == state)

    // A seq the daemon has no state for (from before it watched the scope) gets a snapshot.
    try again.send(.attach(scope: "counter", since: LogPosition(logID: welcome.logID, seq: 1)))
    guard case .snapshot("counter", _, _, false)? = try again.receive() else { throw DriveError("no snapshot") }
  }

  /// A script's window keeps what it was given while the daemon is away, sends it once the
  /// daemon is back, and ends when its input does.
  @Test func aJSONWindowThatLostTheDaemonSendsItsQueueAndEndsWithItsInput() throws {
    var daemon = try DaemonUnderTest().start()
    let home = daemon.home
    defer {
      _ = daemon.terminate()
      daemon.removeHome()
    }
    let window = try RunningCLI(["attach", "counter", "--json"], home: home)
    try window.readLine(containing: #""scope":"counter""#)
    daemon.kill9()
    try window.readLine(containing: #""connected":false"#)
    window.send("inc")
    try window.readLine(containing: #""type":"queued""#)
    daemon = try DaemonUnderTest(home: home).start()
    try window.readLine(containing: #""type":"replayed""#, #""outcome":"applied"#, timeout: 20)
    try window.closeInput()
    while try window.readLine(timeout: 10) != nil {}
    window.process.waitUntilExit()
    #expect(window.process.terminationStatus == 0)
    let state = try ConcordCLI.run(["state", "counter"], home: home)
    #expect(state.output.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
  }

  /// Resending a queue attaches the scopes its actions were sent to; once they are answered
  /// the window lets them go, and watches (and shows in presence) its own scope alone.
  @Test func aWindowLetsGoOfTheScopesOnlyItsQueueNeeded() throws {
    let home = DaemonUnderTest.makeHome()
    let queued = try ConcordCLI.run(["send", "notes", #"{"add":{"text":"written offline"}}"#], home: home)
    #expect(queued.status == 3)
    let daemon = try DaemonUnderTest(home: home).start()
    defer {
      _ = daemon.terminate()
      daemon.removeHome()
    }
    let window = try RunningCLI(["attach", "counter", "--json"], home: home)
    defer { window.stop() }
    try window.readLine(containing: #""type":"replayed""#, #""outcome":"applied"#, timeout: 20)
    let watcher = try LineSocket(path: daemon.socketPath)
    try watcher.hello()
    var presence = try watcher.attach("presence")
    let deadline = Date().addingTimeInterval(5)
    func scopesOfOthers(_ presence: JSONValue) -> Set<String> {
      guard case let .object(windows) = presence else { return [] }
      return Set(windows.values.flatMap { scopes -> [String] in
        guard case let .array(names) = scopes else { return [] }
        return names.compactMap { if case let .string(name) = $0, name != "presence" { name } else { nil } }
      })
    }
    // Presence changes as the window lets go; a window that never does sends no more updates.
    while scopesOfOthers(presence) != ["counter"], Date() < deadline,
      let next = try? watcher.stateAfterUpdate(of: "presence", from: presence, timeout: deadline.timeIntervalSinceNow)
    {
      presence = next
    }
    #expect(scopesOfOthers(presence) == ["counter"], "presence: \(presence.jsonText)")
  }

  @Test func aQuietWindowIsPingedAndOneThatDoesNotAnswerIsLetGo() throws {
    let daemon = try DaemonUnderTest(arguments: ["--ping-interval", "1"]).start()
    defer { daemon.removeHome() }
    let silent = try LineSocket(path: daemon.socketPath)
    try silent.hello()
    let polite = try LineSocket(path: daemon.socketPath)
    try polite.hello()

    #expect(try silent.receive(timeout: 5) == .ping)
    // The polite window answers each ping and stays; the silent one is disconnected.
    let deadline = Date().addingTimeInterval(4)
    while Date() < deadline {
      if (try? polite.receive(timeout: 1)) == .ping { try polite.send(.pong) }
    }
    let last = try silent.receive { if case .error(.overloaded, _, _) = $0 { true } else { false } }
    guard case let .error(_, message, _)? = last.last else { return }
    #expect(message.contains("no answer to ping"))
    #expect(try silent.receive(timeout: 5) == nil)  // closed
    try polite.send(.ping)
    #expect(try polite.receive { $0 == .pong }.last == .pong)
  }
}
