import ConcordClient
import ConcordLog
import ConcordPlatform
import ConcordWire
import DaemonDriving
import Foundation
import Testing
import Workspace
import WorkspaceWindows

@testable import ConcordServer

/// A peer that writes actions and never reads their answers is read no further than a few dozen
/// unanswered actions: what it writes fills its own socket, not the daemon's commits, and it is
/// not cut off for it. Nothing it sent is lost: once it reads, every action is answered, in order,
/// once. A window beside it keeps getting its answers at once.
@Suite struct BackpressureTests {
  @Test func aPeerThatWritesWithoutReadingIsReadOnlyAsFarAsItIsAnswered() throws {
    let daemon = try DaemonUnderTest(home: DaemonUnderTest.makeHome()).start()
    defer { daemon.stopAndRemoveHome() }
    let flooder = try LineSocket.window(of: daemon, attachedTo: "counter")

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
    let committed = try LineSocket(path: daemon.socketPath).hello().seq
    usleep(300_000)
    #expect(try LineSocket(path: daemon.socketPath).hello().seq == committed)
    #expect(committed < Int64(written), "\(committed) committed of \(written) written")

    // A window beside it is answered at once.
    let window = try LineSocket.window(of: daemon, attachedTo: "counter")
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

  /// A peer pipelining actions as fast as it can, reading its answers, shares each commit with a
  /// window that writes beside it: between two of the window's actions in the log come a few of
  /// the peer's, not dozens (a writer alone may have 32 in flight; beside another, 4).
  @Test func aPipeliningPeerSharesEachCommitWithAWindowBesideIt() throws {
    let daemon = try DaemonUnderTest(home: DaemonUnderTest.makeHome()).start()
    defer { daemon.stopAndRemoveHome() }
    let peer = try LineSocket.window(of: daemon, attachedTo: "counter")
    let window = try LineSocket.window(of: daemon, attachedTo: "counter")
    let count = 4_000
    let lines: [UInt8] = (1...count).flatMap { (cseq: Int) -> [UInt8] in
      Array(#"{"action":{"increment":{}},"client":"pipeline","cseq":\#(cseq),"scope":"counter","type":"send"}"#.utf8) + [10]
    }
    let writer = Thread { try? peer.write(lines) }
    writer.start()
    let peerSeqs = LockedValue<[Int64]>([])
    let reader = Thread {
      while let message = try? peer.receive(timeout: 30), peerSeqs.withLock({ $0.count }) < count {
        if case let .ack(_, _, seq) = message { peerSeqs.withLock { $0.append(seq) } }
      }
    }
    reader.start()
    // The window starts once the peer is under way, and writes one action at a time.
    while peerSeqs.withLock({ $0.count }) < 200 { usleep(1_000) }
    var windowSeqs: [Int64] = []
    for cseq in Int64(1)...60 {
      try window.send(.send(scope: "counter", action: ["increment": [:]], client: "window", cseq: cseq))
      let answers = try window.receive { if case .ack(client: "window", _, _) = $0 { true } else { false } }
      if case let .ack(_, _, seq)? = answers.last { windowSeqs.append(seq) }
    }
    let deadline = Date().addingTimeInterval(60)
    while peerSeqs.withLock({ $0.count }) < count && Date() < deadline { usleep(10_000) }
    let peerAcks = peerSeqs.withLock { $0 }
    #expect(peerAcks.count == count, "the peer got \(peerAcks.count) answers of \(count)")
    // How many of the peer's entries lie between two of the window's, in the log.
    let between = zip(windowSeqs, windowSeqs.dropFirst()).map { low, high in peerAcks.count { $0 > low && $0 < high } }.sorted()
    let median = between[between.count / 2]
    #expect(median <= 12, "the peer's entries between two of the window's: \(between)")
  }

  /// A script that pipelines far past the limit and then shuts its write side: the lines held
  /// while it was not read, and the ones still in its socket, are all answered, in order, before
  /// the daemon closes (it reads the end of the input only once it reads again).
  @Test func aScriptThatPipelinesAndShutsItsWriteSideGetsEveryAnswerThenTheClose() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    let peer = try LineSocket.window(of: daemon, attachedTo: "counter")
    try peer.write((1...500).map(AnswerOrderTests.send).joined() + #"{"type":"ping"}"# + "\n")
    peer.shutdownWrite()
    let answers = try peer.linesUntilClosed(timeout: 60).map(AnswerOrderTests.summary).filter { $0 != "update" }
    #expect(answers == (1...500).map { "ack \($0)" } + ["pong"], "\(answers.prefix(3)) … \(answers.suffix(3))")
  }

  /// A window that submits a burst — a script's whole input at once, each action sealed in its
  /// outbox first, which takes milliseconds on a loaded machine — reads the daemon's answers as
  /// it writes. The daemon, which reads no further from a peer whose answers wait unread, never
  /// waits on it for long, and does not drop it as stuck (after 1 s here; 30 s by default).
  @Test func aWindowSubmittingABurstKeepsReadingAndIsNeverDroppedAsStuck() throws {
    let daemon = try DaemonUnderTest(arguments: ["--ping-interval", "1"], app: "workspace").start()
    defer { daemon.stopAndRemoveHome() }
    let session = try WindowSession(home: ConcordHome(daemon.home), scope: "board", app: Workspace.client)
    _ = try session.tick()
    while session.isConnected, session.seq == nil { _ = try session.socketReadable() }
    try #require(session.isConnected)
    let title = String(repeating: "x", count: 150)
    var lost: [String] = []
    let started = Date()
    var count = 0
    // 4 s of submitting, each answered on its own (a slow outbox lets the daemon keep up): far
    // more than the sockets hold, and blocked long enough for the stuck rule to see it.
    while Date().timeIntervalSince(started) < 4 {
      count += 1
      for case let .disconnected(reason) in try session.submit(["addCard": ["title": .string("\(count) \(title)"), "column": "todo"]]).events {
        lost.append(reason)
      }
      usleep(8_000)
    }
    let deadline = Date().addingTimeInterval(60)
    while session.hasUnanswered, session.isConnected, Date() < deadline {
      for case let .disconnected(reason) in try session.socketReadable() { lost.append(reason) }
      usleep(1_000)
    }
    #expect(lost.isEmpty && session.isConnected, "\(lost)")
    #expect(session.readWaitingCount() == 0)
    let board = try ConcordCLI.run(["state", "board"], home: daemon.home, app: "workspace").output
    #expect(board.contains("\"\(count) \(title)\""), "the last of \(count) cards")
  }
}
