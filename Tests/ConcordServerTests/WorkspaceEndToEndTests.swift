import ConcordWire
import DaemonDriving
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Workspace hosted by the real `concordd`, used by three people through `concord attach`.
@Suite(.serialized) struct WorkspaceEndToEndTests {
  /// Three clients (each its own home, client id and outbox, on the one daemon; all of the
  /// test's one account) build a board, work its cards and talk about them; every window ends
  /// with the state the log holds, and the restarted daemon serves that same state.
  @Test func threeClientsBuildMoveAndChatAndConverge() throws {
    var daemon = try DaemonUnderTest(app: "workspace").start()
    defer {
      _ = daemon.terminate()
      daemon.removeHome()
    }
    let builder = try ScriptedWindow("board", daemon: daemon)
    let mover = try ScriptedWindow("board", daemon: daemon)
    let chatter = try ScriptedWindow("chat:general", daemon: daemon)

    try builder.perform(#"add "Fix login" to todo"#)
    try builder.perform(#"add "Write docs""#)
    try builder.perform("column add review 2")
    try builder.perform("invite bob")
    try mover.perform("move 1 doing")
    try mover.perform("assign 1 bob")
    try mover.perform("label 1 bug")
    try mover.perform("due 2 tomorrow 17:00")
    try mover.perform("move 2 review 1")
    #expect(try mover.refusal(of: "assign 2 zed") == "nobody called zed has joined this workspace; invite them first: `invite zed`")
    try chatter.perform("hello @bob, #1 is yours")
    try chatter.perform("and #2 waits for review")
    // A line that starts like JSON but is not is said like any other.
    try chatter.perform("[wip] the docs")
    #expect(try chatter.refusal(of: "/edit 9 nothing") == "there is no message 9 in general")

    // Every window converges on the daemon's state of its scope.
    let board = try builder.daemonState()
    try builder.waitForState(board)
    try mover.waitForState(board)
    let chat = try chatter.daemonState()
    try chatter.waitForState(chat)

    let columns = try #require(board["columns"]?.array)
    #expect(columns.compactMap { $0["name"]?.string } == ["todo", "doing", "done", "review"])
    let doing = try #require(columns[1]["cards"]?.array?.first)
    #expect(doing["title"] == "Fix login")
    #expect(doing["assignee"] == "bob")
    #expect(doing["labels"] == ["bug"])
    let messages = try #require(chat["messages"]?.array)
    #expect(messages.count == 3)
    #expect(chat["cards"] == ["1": "Fix login", "2": "Write docs"])
    #expect(try ScriptedWindow.daemonState("card:1", home: daemon.home)["card"]?["moves"]?.arrayCount == 1)

    // After a restart the daemon serves the same state to a new window, and the old windows
    // reconnect to it.
    #expect(daemon.terminate() == 0)
    daemon = try DaemonUnderTest(home: daemon.home, app: "workspace").start()
    #expect(try ScriptedWindow("board", daemon: daemon).state == board)
    #expect(try ScriptedWindow("chat:general", daemon: daemon).state == chat)
    try mover.waitForState(board, timeout: 20)
    try chatter.waitForState(chat, timeout: 20)
  }

  /// A raw peer sees who is here; bad input to Workspace's scopes gets a clear error and
  /// changes nothing.
  @Test func presenceShowsEveryWindowAndBadInputIsTurnedAway() throws {
    let daemon = try DaemonUnderTest(app: "workspace").start()
    defer {
      _ = daemon.terminate()
      daemon.removeHome()
    }
    let window = try ScriptedWindow("board", daemon: daemon)
    let peer = try LineSocket(path: daemon.socketPath)
    defer { peer.close() }
    try peer.hello()
    var presence = try peer.attach("presence")
    let deadline = Date().addingTimeInterval(10)
    while presence["windows"]?.array?.count != 2, Date() < deadline {
      guard case let .update(_, _, change)? = try peer.receive() else { continue }
      switch change {
      case let .diff(diff): presence = try diff.apply(to: presence)
      case let .reset(state): presence = state
      }
    }
    let scopes = presence["windows"]?.array?.compactMap { $0["scopes"] }
    #expect(scopes?.contains(["board"]) == true)
    #expect(scopes?.contains(["presence"]) == true)

    func error(after message: ClientMessage) throws -> (ServerMessage.ErrorCode, String) {
      try peer.send(message)
      guard case let .error(code, text, _)? = try peer.receive(until: { if case .error = $0 { true } else { false } }).last
      else { throw DriveError("no error for \(message)") }
      return (code, text)
    }
    let readOnly = try error(after: .send(scope: "presence", action: ["hide": [:]], client: "peer", cseq: 1))
    #expect(readOnly.0 == .badAction)
    #expect(readOnly.1.contains("presence is read only"))
    let noCard = try error(after: .attach(scope: "card:abc", since: nil))
    #expect(noCard.0 == .unknownScope)
    #expect(noCard.1.contains("card:abc names nothing"))
    _ = try peer.attach("board")
    let malformed = try error(after: .send(scope: "board", action: ["moveCard": ["id": "x"]], client: "peer", cseq: 2))
    #expect(malformed.0 == .badAction)
    #expect(malformed.1.hasPrefix("not an action of board"))
    // Nothing reached the board, and the window agrees with the log.
    let board = try window.daemonState()
    #expect(board["columns"]?.array?.allSatisfy { $0["cards"] == [] } == true)
    try window.waitForState(board)
  }
}

/// A `concord attach SCOPE --json` of a client of its own: sends words, waits for the answer,
/// and keeps the scope's state from the snapshot and updates it prints.
final class ScriptedWindow {
  let home: URL
  /// Where the daemon keeps its log: `concord state` rebuilds states from it.
  let daemonHome: URL
  let scope: String
  let cli: RunningCLI
  private(set) var state: JSONValue?

  /// A home of its own (its own client id and outbox) with the daemon's socket linked in.
  init(_ scope: String, daemon: DaemonUnderTest) throws {
    home = DaemonUnderTest.makeHome()
    try FileManager.default.createSymbolicLink(
      atPath: home.appending(path: "concordd.sock").path, withDestinationPath: daemon.socketPath)
    self.scope = scope
    cli = try RunningCLI(["attach", scope, "--json"], home: home, app: "workspace")
    daemonHome = daemon.home
    while state == nil { try take(try cli.readLine(containing: #""type":"#)) }
  }

  deinit {
    cli.stop()
    try? FileManager.default.removeItem(at: home)
  }

  /// Types `words` into the window and waits for the ack; a refusal fails the test.
  func perform(_ words: String) throws {
    if let reason = try answer(to: words) { throw DriveError("\(words): refused: \(reason)") }
  }

  /// Types `words`, which the daemon must refuse; returns the reason.
  func refusal(of words: String) throws -> String {
    guard let reason = try answer(to: words) else { throw DriveError("\(words): applied, not refused") }
    return reason
  }

  /// Types `words`; the refusal's reason, or nil once acknowledged.
  private func answer(to words: String) throws -> String? {
    cli.send(words)
    while true {
      let line = try cli.readLine(containing: #""type":"#)
      if line.contains(#""type":"ack""#) { return nil }
      if let message = try? JSONDecoder().decode(ServerMessage.self, from: Data(line.utf8)) {
        if case let .refused(_, _, _, reason) = message { return reason }
        if case let .error(_, text, _) = message { throw DriveError("\(words): \(text)") }
      }
      try take(line)
    }
  }

  private func take(_ line: String) throws {
    guard let message = try? JSONDecoder().decode(ServerMessage.self, from: Data(line.utf8)) else { return }
    switch message {
    case let .snapshot(_, _, snapshot, _): state = snapshot
    case let .update(_, _, .reset(reset)): state = reset
    case let .update(_, _, .diff(diff)):
      guard let current = state else { throw DriveError("an update before any state: \(line)") }
      state = try diff.apply(to: current)
    default: break
    }
  }

  /// Reads updates until the window's state is `expected`.
  func waitForState(_ expected: JSONValue, timeout: Double = 10) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while state != expected {
      guard deadline.timeIntervalSinceNow > 0, let line = try cli.readLine(timeout: deadline.timeIntervalSinceNow) else {
        throw DriveError("\(scope) did not converge:\n\(String(describing: state))\nexpected\n\(expected)")
      }
      try take(line)
    }
  }

  /// The scope's state as the log has it, through `concord state`.
  func daemonState() throws -> JSONValue { try Self.daemonState(scope, home: daemonHome) }

  static func daemonState(_ scope: String, home: URL) throws -> JSONValue {
    let result = try ConcordCLI.run(["state", scope], home: home, app: "workspace")
    guard result.status == 0 else { throw DriveError("concord state \(scope): \(result.error)") }
    return try JSONDecoder().decode(JSONValue.self, from: Data(result.output.utf8))
  }
}
