import ConcordWire
import Foundation
import Testing

/// A peer that writes actions and never reads their answers is read no further than a few dozen
/// unanswered actions: what it writes fills its own socket, not the daemon's commits, and it is
/// not cut off for it. Nothing it sent is lost: once it reads, every action is answered, in order,
/// once. A window beside it keeps getting its answers at once.
@Suite struct BackpressureTests {
  @Test func aPeerThatWritesWithoutReadingIsReadOnlyAsFarAsItIsAnswered() throws {
    let daemon = try DaemonProcess(home: DaemonProcess.makeHome()).start()
    defer { daemon.stopAndRemoveHome() }
    let flooder = try RawPeer.window(of: daemon, attachedTo: "counter")

    // Sends, as fast as the socket takes them, until it has taken nothing for a second (or
    // 100,000 have gone: a daemon that reads everything would take them all).
    let line = { (cseq: Int) in Array(#"{"action":{"increment":{}},"client":"flood","cseq":\#(cseq),"scope":"counter","type":"send"}"#.utf8) + [10] }
    var pending: [UInt8] = []
    var offset = 0
    var made = 0
    var written = 0
    var closed = false
    var lastProgress = Date()
    while Date().timeIntervalSince(lastProgress) < 1, written < 100_000 {
      if offset == pending.count {
        pending = (made + 1...made + 64).flatMap(line)
        made += 64
        offset = 0
      }
      guard let taken = flooder.writeWithoutWaiting(pending[offset...]) else {
        closed = true
        break
      }
      if taken > 0 {
        written += pending[offset..<offset + taken].count { $0 == 10 }
        offset += taken
        lastProgress = Date()
      } else {
        usleep(5_000)
      }
    }
    #expect(!closed, "the daemon cut the peer off after \(written) sends instead of no longer reading it")
    #expect(written < 100_000, "the daemon read every send of a peer that reads nothing")

    // It stays stalled: the daemon commits none of it beyond what it has answered.
    let committed = try RawPeer(path: daemon.socketPath).hello().seq
    usleep(300_000)
    #expect(try RawPeer(path: daemon.socketPath).hello().seq == committed)
    #expect(committed < Int64(written), "\(committed) committed of \(written) written")

    // A window beside it is answered at once.
    let window = try RawPeer.window(of: daemon, attachedTo: "counter")
    for cseq in Int64(1)...20 {
      let sent = Date()
      try window.send(.send(scope: "counter", action: ["increment": [:]], client: "beside", cseq: cseq))
      let answer = try window.receive { if case .ack = $0 { true } else { false } }.last
      guard case .ack(client: "beside", cseq: cseq, seq: _)? = answer else {
        Issue.record("expected the ack of \(cseq), got \(String(describing: answer))")
        return
      }
      #expect(Date().timeIntervalSince(sent) < 1)
    }

    // The peer reads: every send it wrote whole is answered, in order, once, and the counter
    // counts each once.
    var next = 1
    while next <= written {
      guard let message = try flooder.receive(timeout: 20) else { Issue.record("closed after the ack of \(next - 1)"); return }
      if case .update = message { continue }
      guard case let .ack(client: "flood", cseq: cseq, seq: _) = message, cseq == Int64(next) else {
        Issue.record("expected the ack of \(next), got \(message)")
        return
      }
      next += 1
    }
    let state = try ConcordCLI.run(["state", "counter"], home: daemon.home).output
    #expect(state.trimmingCharacters(in: .whitespacesAndNewlines) == String(written + 20))
  }
}
