import ConcordWire
import Foundation
import Testing

/// Answers are never lost and come in the order of what they answer (the schema's
/// CONVERSATION), checked through the real daemon and a raw socket: the lines are read as the
/// peer gets them, and each is parsed by Foundation's JSONSerialization.
@Suite(.serialized) struct AnswerOrderTests {
  static let increment = #"{"type":"send","scope":"counter","client":"script","cseq":CSEQ,"action":{"increment":{}}}"#

  static func send(_ cseq: Int) -> String { increment.replacingOccurrences(of: "CSEQ", with: String(cseq)) + "\n" }

  /// The `type` of each line, with the `cseq` of answers to sends (`ack 1`).
  static func summary(_ line: String) -> String {
    let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
    let type = object["type"] as? String ?? "?"
    if let cseq = object["cseq"] as? Int { return "\(type) \(cseq)" }
    if let scope = object["scope"] as? String, type != "update" { return "\(type) \(scope)" }
    return type
  }

  @Test func aScriptThatShutsItsWriteSideIsAnsweredEverythingAndThenClosed() throws {
    let daemon = try DaemonProcess().start()
    defer { daemon.removeHome() }
    let script = try RawPeer(path: daemon.socketPath)
    try script.write(
      #"{"type":"hello","protocol":1}"# + "\n" + #"{"type":"attach","scope":"counter"}"# + "\n" + Self.send(1)
        + #"{"type":"ping"}"# + "\n")
    script.shutdownWrite()
    let lines = try script.linesUntilClosed()
    #expect(lines.map(Self.summary) == ["welcome", "snapshot counter", "update", "ack 1", "pong"], "\(lines)")

    // The action was applied once, and the daemon serves on.
    let reader = try RawPeer(path: daemon.socketPath)
    try reader.hello()
    #expect(try reader.attach("counter") == 1)
  }

  @Test func answersComeInTheOrderOfWhatTheyAnswerAndUpdatesBeforeTheirAck() throws {
    let daemon = try DaemonProcess().start()
    defer { daemon.removeHome() }
    let peer = try RawPeer(path: daemon.socketPath)
    try peer.hello()
    _ = try peer.attach("counter")
    // One write: nothing the daemon answers at once may overtake an answer that waits for a commit.
    var burst = Self.send(1) + #"{"type":"ping"}"# + "\n" + #"{"type":"attach","scope":"notes"}"# + "\n"
    for cseq in 2...50 { burst += Self.send(cseq) }
    burst += #"{"type":"status"}"# + "\n" + #"{"type":"detach","scope":"notes"}"# + "\n" + #"{"type":"ping"}"# + "\n"
    try peer.write(burst)
    var answers: [String] = []
    var updatesBeforeAck: [Int] = []
    var sawUpdate = false
    while answers.last != "pong" || answers.count < 54 {
      guard let line = try peer.readLine() else { break }
      let summary = Self.summary(line)
      if summary == "update" {
        sawUpdate = true
        continue
      }
      if summary.hasPrefix("ack "), sawUpdate { updatesBeforeAck.append(Int(summary.dropFirst(4))!) }
      sawUpdate = false
      answers.append(summary)
    }
    let expected = ["ack 1", "pong", "snapshot notes"] + (2...50).map { "ack \($0)" } + ["status", "detached notes", "pong"]
    #expect(answers == expected)
    // Every commit's update came before the first ack it holds (acks of one commit follow each other).
    #expect(updatesBeforeAck.first == 1)
  }

  @Test func aLineTooLongIsAnsweredAfterWhatCameBeforeItAndThenTheConnectionCloses() throws {
    let daemon = try DaemonProcess().start()
    defer { daemon.removeHome() }
    let peer = try RawPeer(path: daemon.socketPath)
    try peer.hello()
    _ = try peer.attach("counter")
    // Many sends, so that commits are still under way when the long line is read.
    try peer.write((1...300).map(Self.send).joined() + String(repeating: "x", count: (1 << 20) + 10) + "\n")
    let answers = try peer.linesUntilClosed().map(Self.summary).filter { $0 != "update" }
    #expect(answers == (1...300).map { "ack \($0)" } + ["error"], "\(answers.suffix(5))")
  }
}
