import ConcordWire
import Foundation
import Testing

@testable import ConcordClient

#if canImport(Glibc)
import Glibc
#endif

/// A connection whose daemon is busy writing to it: the window's sends find its socket full
/// while the daemon's lines fill the window's. A send that only waited for room would wait on a
/// daemon that waits on it; the connection reads what the daemon sent while it waits, and every
/// line on both sides arrives. The daemon is `ScriptedDaemon`, written from the wire schema.
@Suite struct ClientConnectionTests {
  @Test func aSendThatFindsTheSocketFullReadsWhatTheDaemonSendsMeanwhile() throws {
    let home = TemporaryHome.make()
    defer { try? FileManager.default.removeItem(at: home) }
    let socket = home.appending(path: "concordd.sock")
    // 200,000 pongs (3 MiB) one write each, then 3,000 sends: far more than two sockets hold.
    let (pongs, sends) = (200_000, 3_000)
    let daemon = try ScriptedDaemon(socket: socket, logID: String(repeating: "ab", count: 16), count: 0, seq: 0, pongsAfterWelcome: pongs)
    defer { daemon.stop() }
    // Sends on one thread while this one waits, then reads: one at a time, never together.
    nonisolated(unsafe) let connection = try ClientConnection(socket: socket, presence: false)
    defer { connection.close() }

    let sent = LockedFlag()
    let sender = Thread {
      for cseq in 1...sends {
        guard (try? connection.send(.send(scope: "counter", action: ["add": ["amount": 1]], client: "burst", cseq: Int64(cseq)))) != nil
        else { return }
      }
      sent.set()
    }
    sender.start()
    let deadline = Date().addingTimeInterval(30)
    while !sent.isSet, Date() < deadline { usleep(10_000) }
    // A send stuck on the daemon is let go (shutting the socket wakes it), and the test fails.
    if !sent.isSet { shutdown(connection.fileDescriptor, Int32(SHUT_RDWR)) }
    #expect(sent.isSet, "the sends waited on a daemon that waited on them")

    var (pongsRead, acks) = (0, 0)
    while sent.isSet, acks < sends, let message = try connection.receive(timeout: 10) {
      if message == .pong { pongsRead += 1 }
      if case .ack = message { acks += 1 }
    }
    #expect(pongsRead == pongs && acks == sends, "\(pongsRead) pongs, \(acks) acks")
    #expect(daemon.model.withLock { $0.sends.count } == sends)
  }
}

/// A flag set once, read from another thread.
private final class LockedFlag: @unchecked Sendable {
  // @unchecked: `value` is read and written under `lock`.
  private let lock = NSLock()
  private var value = false
  func set() { lock.withLock { value = true } }
  var isSet: Bool { lock.withLock { value } }
}
