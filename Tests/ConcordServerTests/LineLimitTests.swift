import ConcordWire
import DaemonDriving
import Foundation
import Testing

/// Every line obeys the 1 MiB limit, in both directions: the daemon takes a line of exactly
/// 1 MiB (its `\r\n` not counted) and writes none longer, whatever its peers put in the state.
/// Lengths are measured on the bytes a raw socket reads.
@Suite(.serialized) struct LineLimitTests {
  static let limit = 1 << 20

  /// A `ping` padded with spaces to exactly `bytes` bytes.
  static func ping(bytes: Int) -> String {
    let ping = #"{"type":"ping"}"#
    return ping + String(repeating: " ", count: bytes - ping.utf8.count)
  }

  @Test func aLineOfOneMebibyteIsTakenWithItsCRLFAndOneByteMoreIsNot() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    let peer = try LineSocket(path: daemon.socketPath)
    try peer.hello()
    try peer.write(Self.ping(bytes: Self.limit) + "\r\n")
    #expect(try peer.receive() == .pong)
    try peer.write(Self.ping(bytes: Self.limit) + "\n")
    #expect(try peer.receive() == .pong)
    try peer.write(Self.ping(bytes: Self.limit + 1) + "\r\n")
    guard case let .error(code, _, _)? = try peer.receive() else { Issue.record("no error"); return }
    #expect(code == .tooLong)
  }

  /// Notes of random sizes are added until the daemon refuses one; a window watching the notes
  /// and a window attaching afresh never read a line over the limit, and a restart boots the
  /// log with its refusals.
  @Test func noStateTheDaemonHoldsMakesALineOverTheLimit() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    let watcher = try LineSocket.window(of: daemon, attachedTo: "notes")
    let writer = try LineSocket.window(of: daemon, attachedTo: "notes")
    var random = SystemRandomNumberGenerator()
    var refusal: String?
    var cseq: Int64 = 0
    while refusal == nil, cseq < 40 {
      cseq += 1
      let size = Int.random(in: 50_000...400_000, using: &random)
      let text = String(repeating: "n", count: size - 1) + "é"
      try writer.send(.send(scope: "notes", action: ["add": ["text": .string(text)]], client: "w", cseq: cseq))
      let answers = try writer.receive { if case .ack = $0 { true } else if case .refused = $0 { true } else { false } }
      if case let .refused(_, _, _, reason)? = answers.last { refusal = reason }
    }
    let reason = try #require(refusal)
    #expect(reason.contains("state of notes") && reason.contains("more than one line"), "\(reason)")
    // The watcher read every update: none over the limit.
    try watcher.write(#"{"type":"ping"}"# + "\n")
    while let line = try watcher.readLine() {
      #expect(line.utf8.count <= Self.limit)
      if line == #"{"type":"pong"}"# { break }
    }
    let fresh = try LineSocket(path: daemon.socketPath)
    try fresh.hello()
    try fresh.write(#"{"type":"attach","scope":"notes"}"# + "\n")
    let snapshot = try #require(try fresh.readLine())
    #expect(snapshot.utf8.count <= Self.limit)
    #expect(snapshot.contains(#""type":"snapshot""#))
    #expect(daemon.terminate() == 0)

    let restarted = try DaemonUnderTest(home: daemon.home).start()
    let again = try LineSocket(path: restarted.socketPath)
    try again.hello()
    try again.write(#"{"type":"attach","scope":"notes"}"# + "\n")
    // The same notes (the seq moved on: the restart logs its own entries).
    let rebooted = try #require(try again.readLine())
    func notes(_ line: String) -> Data? {
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let state = object["state"]
      else { return nil }
      return try? JSONSerialization.data(withJSONObject: state, options: [.sortedKeys])
    }
    let same = notes(rebooted) != nil && notes(rebooted) == notes(snapshot)
    #expect(same, "the notes after the restart differ from before")
    #expect(restarted.terminate() == 0)
  }

  /// Workspace bounds what a person can put on a card, and a refusal that quotes what was sent
  /// is cut, so neither a board nor a reason outgrows a line.
  @Test func workspaceRefusesTextsThatWouldOutgrowALineInWords() throws {
    let daemon = try DaemonUnderTest(app: "workspace").start()
    defer { daemon.removeHome() }
    let peer = try LineSocket(path: daemon.socketPath)
    try peer.hello()
    _ = try peer.attach("board")
    var cseq: Int64 = 0
    func send(_ action: JSONValue) throws -> (line: String, message: ServerMessage?) {
      cseq += 1
      try peer.send(.send(scope: "board", action: action, client: "w", cseq: cseq))
      while true {
        let line = try #require(try peer.readLine())
        #expect(line.utf8.count <= Self.limit)
        let message = try? WireCoding().decode(ServerMessage.self, from: Array(line.utf8))
        switch message {
        case .ack?, .refused?, .error?: return (line, message)
        default: continue
        }
      }
    }
    guard case .ack? = try send(["addCard": ["title": "Long", "column": "todo"]]).message else {
      Issue.record("the card was not added")
      return
    }
    let description = String(repeating: "d", count: 700_000)
    let answer = try send(["editCard": ["id": 1, "description": .string(description)]])
    guard case let .refused(_, _, _, reason)? = answer.message else { Issue.record("\(answer.line.prefix(200))"); return }
    #expect(reason.contains("a description is at most 10,000 characters"), "\(reason)")

    let name = String(repeating: "u", count: 600_000)
    let assign = try send(["assign": ["id": 1, "user": .string(name)]])
    guard case let .refused(_, _, _, long)? = assign.message else { Issue.record("\(assign.line.prefix(200))"); return }
    // Refused before the reducer looks for the person: a name is bounded in bytes too.
    #expect(long.hasPrefix("a name is at most 640 bytes"), "\(long.prefix(100))")
    #expect(long.utf8.count <= WireLimits.maximumReasonBytes)
    #expect(assign.line.utf8.count < 8_192)
  }

  /// A line is at most 1 MiB, but some text grows in NFC (U+1D160 becomes three characters, 12
  /// bytes): what one line puts in the log stays within a line all the same.
  @Test func textThatGrowsInNFCIsRefusedBeforeItIsLogged() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    let peer = try LineSocket(path: daemon.socketPath)
    try peer.hello()
    _ = try peer.attach("notes")
    let notes = String(repeating: "\u{1D160}", count: 250_000)
    try peer.send(.send(scope: "notes", action: ["add": ["text": .string(notes)]], client: "w", cseq: 1))
    let answer = try peer.receive { if case .error = $0 { true } else if case .ack = $0 { true } else { $0.typeName == "refused" } }.last
    guard case let .error(code, message, 1)? = answer else { Issue.record("answered \(String(describing: answer).prefix(300))"); return }
    #expect(code == .badAction)
    #expect(message.contains("as it would be logged"))
    #expect(daemon.terminate() == 0)
    let export = try ConcordCLI.run(["log", "export", "--format", "jsonl"], home: daemon.home)
    #expect(export.output.split(separator: "\n").allSatisfy { $0.utf8.count <= Self.limit })
  }
}
