import DaemonDriving
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The attacks of the hostile suite. Each runs on its own thread until told to stop, and says
/// in a few words what it managed.
enum HostilePeers {
  typealias Attack = @Sendable (ClientMode, Report) -> Void

  /// What an attacker says it did.
  final class Report: Sendable {
    private let words = Mutex((text: "", failed: false, skipped: false))
    var text: String { words.withLock { $0.text } }
    /// The attack got what the daemon must not give (another account welcomed, say), or did not
    /// get under way at all: an attack that never ran proves nothing.
    var failed: Bool { words.withLock { $0.failed } }
    /// The attack cannot run here (it needs root): shown as skipped, not as held.
    var skipped: Bool { words.withLock { $0.skipped } }
    func say(_ text: String) { words.withLock { $0.text = text } }
    func fail(_ text: String) { words.withLock { $0 = (text, true, false) } }
    func skip(_ text: String) { words.withLock { $0 = ("skipped: " + text, false, true) } }
  }

  static let idle: Attack = { stop, report in
    while stop.current != .stop { usleep(10_000) }
    report.say("–")
  }

  /// Runs this program as `nobody` connecting in a loop for `seconds`; the socket is opened to
  /// others for the while, so only the daemon's peer check stands in the way.
  static func otherAccount(socket: String, home: URL, seconds: Double) -> Attack {
    { stop, report in
      guard getuid() == 0, let nobody = getpwnam("nobody") else {
        report.skip("becoming another account needs root")
        return
      }
      let work = home.deletingLastPathComponent()
      for directory in [work, home] { chmod(directory.path, 0o711) }
      chmod(socket, 0o666)
      defer {
        chmod(socket, 0o600)
        for directory in [work, home] { chmod(directory.path, 0o700) }
      }
      let process = Process()
      process.executableURL = URL(filePath: CommandLine.arguments[0])
      process.arguments = [
        "hostile", "other-account-peer", "--socket", socket, "--uid", "\(nobody.pointee.pw_uid)",
        "--gid", "\(nobody.pointee.pw_gid)", "--for", "\(seconds)",
      ]
      let output = Pipe()
      process.standardOutput = output
      process.standardError = output
      guard (try? process.run()) != nil else { return report.fail("could not start the peer") }
      // It stops by itself, once the good window's measurement is over.
      process.waitUntilExit()
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      let said = text.isEmpty ? "the peer said nothing" : "as nobody: " + text.trimmingCharacters(in: .whitespacesAndNewlines)
      if process.terminationStatus == 0 { report.say(said) } else { report.fail(said + " — NOT ALL REFUSED") }
    }
  }

  /// Attaches, then writes sends as fast as the socket takes them and never reads an answer.
  static func flood(socket: String) -> Attack {
    { stop, report in
      guard let peer = try? LineSocket.window(path: socket, scope: "counter") else { return report.fail("could not connect") }
      peer.setNonBlocking()
      var sends = SendStream(client: "flood")
      var closed = false
      while stop.current != .stop && !closed {
        guard let written = sends.write(to: peer) else {
          closed = true
          break
        }
        if written == 0 { usleep(1_000) }
      }
      report.say("wrote \(mebibytes(sends.bytesWritten)), read nothing; \(closed ? "the daemon closed it" : "still connected")")
    }
  }

  /// Attaches, then writes sends as fast as the socket takes them, taking its answers as they
  /// come but never waiting for one: a peer that pipelines without a limit.
  static func pipelineFlood(socket: String) -> Attack {
    { stop, report in
      guard let peer = try? LineSocket.window(path: socket, scope: "counter") else { return report.fail("could not connect") }
      peer.setNonBlocking()
      var sends = SendStream(client: "pipeline")
      var acks = 0
      var closed = false
      while stop.current != .stop && !closed {
        guard let written = sends.write(to: peer), (try? peer.fill()) == true else {
          closed = true
          break
        }
        while let line = peer.nextLine() { if LineKind(line) == .ack { acks += 1 } }
        if written == 0 { usleep(200) }
      }
      report.say("\(acks) answered while it sent \(sends.cseq); \(closed ? "the daemon closed it" : "still connected")")
    }
  }

  /// Opens `count` connections, says hello on each, holds them, then drops them all.
  static func crowd(socket: String, count: Int) -> Attack {
    { stop, report in
      var peers: [LineSocket] = []
      var failures = 0
      for _ in 0..<count where stop.current != .stop {
        guard let peer = try? LineSocket(path: socket) else {
          failures += 1
          continue
        }
        try? peer.write(LineSocket.hello)
        peers.append(peer)
      }
      let opened = peers.count
      while stop.current != .stop { usleep(10_000) }
      peers.removeAll()
      let said = "\(opened) open at once" + (failures > 0 ? ", \(failures) refused by the system" : "")
      // A crowd that never gathered attacked nothing.
      opened == 0 ? report.fail(said) : report.say(said)
    }
  }

  /// `peers` connections each sending a hello one byte a second.
  static func trickle(socket: String, peers count: Int) -> Attack {
    { stop, report in
      let peers = (0..<count).compactMap { _ in try? LineSocket(path: socket) }
      let hello = Array(LineSocket.hello.utf8)
      var sent = 0
      var lastByte = monotonicNanoseconds()
      while stop.current != .stop {
        if monotonicNanoseconds() - lastByte >= 1_000_000_000 {
          lastByte = monotonicNanoseconds()
          for peer in peers { try? peer.write([hello[sent % hello.count]]) }
          sent += 1
        }
        usleep(10_000)
      }
      let said = "\(peers.count) peers, \(sent) bytes each"
      peers.isEmpty || sent == 0 ? report.fail(said) : report.say(said)
    }
  }
}

/// An endless stream of the counter's `increment`, numbered from 1, written 64 lines at a time
/// without waiting: a partly written batch goes on where it stopped.
struct SendStream {
  let client: String
  private(set) var cseq: Int64 = 0
  private(set) var bytesWritten = 0
  private var batch: [UInt8] = []
  private var offset = 0

  init(client: String) { self.client = client }

  /// Writes what the socket takes now: how many bytes, or nil once the daemon closed it.
  mutating func write(to peer: LineSocket) -> Int? {
    if offset == batch.count {
      batch = []
      for _ in 0..<64 {
        cseq += 1
        batch += Array(#"{"action":{"increment":{}},"client":"\#(client)","cseq":\#(cseq),"scope":"counter","type":"send"}"#.utf8) + [10]
      }
      offset = 0
    }
    let written = batch[offset...].withUnsafeBytes { send(peer.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    if written > 0 {
      offset += written
      bytesWritten += written
      return written
    }
    return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : nil
  }
}
