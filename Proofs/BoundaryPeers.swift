import DaemonDriving
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The hostile suite's peers at the boundaries between systems (issue: one line from a peer
/// must not brick, stop or mislead the daemon): client ids that C, SQLite and Swift read
/// differently, integers past a double's precision, duplicate members, a line of exactly 1 MiB
/// and CRLF, texts that would make a state too large to send, and scripts that shut their write
/// side. Each round checks what the wire promises: an answer for every line, in order, and no
/// line over 1 MiB.
enum BoundaryPeers {
  static let limit = 1 << 20
  static let pong = #"{"type":"pong"}"#

  /// The lines of one round, each followed by a `ping`: the `pong` must come after its answer.
  static func round(_ number: Int) -> [String] {
    let cseq = Int64(number) * 10
    func send(client: String, cseq: String, action: String = #"{"increment":{}}"#, scope: String = "counter") -> String {
      #"{"type":"send","scope":"\#(scope)","client":"\#(client)","cseq":\#(cseq),"action":\#(action)}"#
    }
    let padding = String(repeating: " ", count: limit - #"{"type":"ping"}"#.utf8.count)
    return [
      send(client: #"me\u0000"#, cseq: "\(cseq)"),
      send(client: #"concordd\u0000"#, cseq: "\(cseq)"),
      send(client: #"caf\u00e9"#, cseq: "\(cseq)"),
      send(client: "cafe\u{301}", cseq: "\(cseq)"),
      send(client: "b53", cseq: "\((1 << 53) + Int64(number))"),
      send(client: "b53", cseq: "1e3"),
      send(client: "max", cseq: "\(Int64.max - Int64(number))"),
      #"{"type":"send","scope":"counter","client":"dup","client":"concordd","cseq":1,"action":{"increment":{}}}"#,
      send(client: "notes", cseq: "\(cseq + 1)", action: #"{"add":{"text":"\#(String(repeating: "n", count: 150_000))"}}"#, scope: "notes"),
      #"{"type":"ping"}"# + padding + "\r",
    ]
  }

  /// Sends rounds of boundary lines until told to stop, and scripts that half-close beside them.
  static func lines(socket: String) -> HostilePeers.Attack {
    { stop, report in
      guard let peer = try? LineSocket(path: socket) else { return report.fail("could not connect") }
      var sent = 0
      var longest = 0
      var problems: [String] = []
      var halfClosed = 0
      do {
        try peer.write(LineSocket.hello)
        _ = try peer.expectLine()
        for scope in ["counter", "notes"] {
          try peer.write(#"{"type":"attach","scope":"\#(scope)"}"# + "\n")
          _ = try peer.expectLine()
        }
        var number = 0
        while stop.current != .stop, problems.isEmpty {
          number += 1
          for line in round(number) {
            try peer.write(line + "\n" + pong.replacingOccurrences(of: "pong", with: "ping") + "\n")
            sent += 1
            // Every line is answered (an error, ack, refused or pong), and before the pong of
            // the ping after it.
            let isPing = line.hasPrefix(#"{"type":"ping"}"#)
            var answers: [String] = []
            while answers.filter({ $0 == pong }).count < (isPing ? 2 : 1) {
              let answer = try peer.expectLine(timeout: 10)
              longest = max(longest, answer.utf8.count)
              if answer.utf8.count > limit { problems.append("a line of \(answer.utf8.count) bytes") }
              if !answer.contains(#""type":"update""#) { answers.append(answer) }
            }
            if !isPing, answers.count != 2 || answers[0] == pong {
              problems.append("\(line.prefix(60)) was answered \(answers.map { $0.prefix(60) })")
            }
          }
          if try halfClose(socket: socket, cseq: Int64(number)) { halfClosed += 1 } else { problems.append("a script that half-closed was not answered") }
        }
      } catch {
        problems.append("\(error)")
      }
      let said = "\(sent) boundary lines, \(halfClosed) half-closed scripts answered; longest line written \(longest.formatted()) bytes"
      problems.isEmpty ? report.say(said) : report.fail(said + ": " + problems.prefix(2).joined(separator: "; "))
    }
  }

  /// A script that writes its lines and shuts its write side, as `printf … | socat` does: it must
  /// get its ack and pong, then the daemon's close.
  static func halfClose(socket: String, cseq: Int64) throws -> Bool {
    let script = try LineSocket(path: socket)
    try script.write(
      LineSocket.hello + #"{"type":"attach","scope":"counter"}"# + "\n"
        + #"{"type":"send","scope":"counter","client":"script","cseq":\#(cseq),"action":{"increment":{}}}"# + "\n"
        + #"{"type":"ping"}"# + "\n")
    shutdown(script.fd, Int32(SHUT_WR))
    var lines: [String] = []
    while let line = try? script.expectLine(timeout: 10) { lines.append(line) }
    return lines.contains { $0.contains(#""type":"ack""#) } && lines.last == #"{"type":"pong"}"#
  }
}
