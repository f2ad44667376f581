import ConcordWire
import DaemonDriving
import Foundation
import PropertyRandom
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
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    let script = try LineSocket(path: daemon.socketPath)
    try script.write(
      #"{"type":"hello","protocol":1}"# + "\n" + #"{"type":"attach","scope":"counter"}"# + "\n" + Self.send(1)
        + #"{"type":"ping"}"# + "\n")
    script.shutdownWrite()
    let lines = try script.linesUntilClosed()
    #expect(lines.map(Self.summary) == ["welcome", "snapshot counter", "update", "ack 1", "pong"], "\(lines)")

    // The action was applied once, and the daemon serves on.
    let reader = try LineSocket(path: daemon.socketPath)
    try reader.hello()
    #expect(try reader.attach("counter") == 1)
  }

  @Test func answersComeInTheOrderOfWhatTheyAnswerAndUpdatesBeforeTheirAck() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    let peer = try LineSocket(path: daemon.socketPath)
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
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    let peer = try LineSocket(path: daemon.socketPath)
    try peer.hello()
    _ = try peer.attach("counter")
    // Many sends, so that commits are still under way when the long line is read.
    try peer.write((1...300).map(Self.send).joined() + String(repeating: "x", count: (1 << 20) + 10) + "\n")
    let answers = try peer.linesUntilClosed().map(Self.summary).filter { $0 != "update" }
    #expect(answers == (1...300).map { "ack \($0)" } + ["error"], "\(answers.suffix(5))")
  }

  /// Random scripts — sends, pings, attaches, detaches, status, in one write or several — that
  /// shut their write side: each gets every answer, in the order of its lines, then the close.
  /// The model is the schema's CONVERSATION: one answer a line, in order.
  @Test func randomScriptsThatHalfCloseGetEveryAnswerInOrder() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    var cseq = 1_000
    for seed in PropertyRandom.seeds(from: 0xA05E_0000, count: 20) {
      var random = PropertyRandom(seed: seed)
      // A script attaches the counter first; a send after it detached the counter is not taken.
      var lines = [#"{"type":"hello","protocol":1}"# + "\n", #"{"type":"attach","scope":"counter"}"# + "\n"]
      var expected = ["welcome", "snapshot counter"]
      var attached: Set<String> = ["counter"]
      for _ in 0..<random.int(0...25) {
        switch random.int(0...5) {
        case 0, 1:
          cseq += 1
          lines.append(Self.send(cseq))
          expected.append(attached.contains("counter") ? "ack \(cseq)" : "error \(cseq)")
        case 2:
          lines.append(#"{"type":"ping"}"# + "\n")
          expected.append("pong")
        case 3:
          let scope = random.pick(["counter", "notes"])
          lines.append(#"{"type":"attach","scope":"\#(scope)"}"# + "\n")
          expected.append("snapshot \(scope)")
          attached.insert(scope)
        case 4:
          let scope = random.pick(["counter", "notes"])
          lines.append(#"{"type":"detach","scope":"\#(scope)"}"# + "\n")
          expected.append("detached \(scope)")
          attached.remove(scope)
        default:
          lines.append(#"{"type":"status"}"# + "\n")
          expected.append("status")
        }
      }
      let script = try LineSocket(path: daemon.socketPath)
      // In one write, or in a few.
      var rest = lines[...]
      while !rest.isEmpty {
        let count = random.chance(50) ? rest.count : random.int(1...rest.count)
        try script.write(rest.prefix(count).joined())
        rest = rest.dropFirst(count)
      }
      script.shutdownWrite()
      let answers = try script.linesUntilClosed().map(Self.summary).filter { $0 != "update" }
      #expect(answers == expected, "seed \(seed)")
    }
  }
}
