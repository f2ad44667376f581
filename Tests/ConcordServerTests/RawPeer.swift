import ConcordClient
import ConcordPlatform
import ConcordWire
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A raw Unix-socket peer: writes bytes, reads lines, with timeouts. What a script or an
/// attacker would be.
final class RawPeer: @unchecked Sendable {
  private var fd: Int32
  private var buffer: [UInt8] = []
  private let coding = WireCoding()

  init(path: String) throws {
    fd = try UnixSocket.connect(to: path)
  }

  func write(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard written > 0 else { throw DaemonTestError("write failed: \(String(cString: strerror(errno)))") }
      offset += written
    }
  }

  func write(_ text: String) throws { try write(Array(text.utf8)) }

  /// Writes what the socket takes now, without waiting: how many bytes (0 when it takes none),
  /// or nil once the daemon has closed the connection.
  func writeWithoutWaiting(_ bytes: ArraySlice<UInt8>) -> Int? {
    let written = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    if written >= 0 { return written }
    return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : nil
  }

  /// Shuts the write side, as `printf … | socat - UNIX-CONNECT:…` does at the end of its input:
  /// the daemon reads end of file but can still answer.
  func shutdownWrite() {
    _ = shutdown(fd, Int32(SHUT_WR))
  }

  /// Every line until the daemon closes the connection; throws if it is still open after
  /// `timeout`.
  func linesUntilClosed(timeout: TimeInterval = 10) throws -> [String] {
    var lines: [String] = []
    let deadline = Date().addingTimeInterval(timeout)
    while let line = try readLine(timeout: max(0.01, deadline.timeIntervalSinceNow)) { lines.append(line) }
    return lines
  }

  func send(_ message: ClientMessage) throws {
    try write([UInt8](try coding.line(for: message)))
  }

  /// The next line, or nil when the daemon closed the connection; throws after `timeout`.
  func readLine(timeout: TimeInterval = 10) throws -> String? {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeFirst(newline + 1)
        return line
      }
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { throw DaemonTestError("no line within \(timeout) s; have \(buffer.count) bytes") }
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, Int32(remaining * 1000)) > 0 else { continue }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let count = recv(fd, &chunk, chunk.count, 0)
      if count <= 0 { return nil }
      buffer.append(contentsOf: chunk[..<count])
    }
  }

  /// Takes at most `count` bytes from the socket and drops them, as a window that draws slowly
  /// would: how many it took (0 when none were waiting), or nil once the daemon has closed the
  /// connection.
  func drain(upTo count: Int) -> Int? {
    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, 0) > 0 else { return 0 }
    var chunk = [UInt8](repeating: 0, count: count)
    let taken = recv(fd, &chunk, count, 0)
    return taken > 0 ? taken : nil
  }

  /// How many bytes the daemon has sent that this window has not read yet.
  var unreadBytes: Int {
    var count: Int32 = 0
    return ioctl(fd, UInt(FIONREAD), &count) == 0 ? Int(count) : 0
  }

  /// The next message from the daemon.
  func receive(timeout: TimeInterval = 10) throws -> ServerMessage? {
    guard let line = try readLine(timeout: timeout) else { return nil }
    return try coding.decode(ServerMessage.self, from: Array(line.utf8))
  }

  /// Reads messages until one matches; the others are returned too.
  @discardableResult
  func receive(until matches: (ServerMessage) -> Bool, timeout: TimeInterval = 10) throws -> [ServerMessage] {
    var seen: [ServerMessage] = []
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      guard let message = try receive(timeout: max(0.01, deadline.timeIntervalSinceNow)) else {
        throw DaemonTestError("connection closed; saw \(seen)")
      }
      seen.append(message)
      if matches(message) { return seen }
    }
  }

  /// A window of `daemon`, welcomed and attached to `scope`.
  static func window(of daemon: DaemonProcess, attachedTo scope: String) throws -> RawPeer {
    let window = try RawPeer(path: daemon.socketPath)
    try window.hello()
    _ = try window.attach(scope)
    return window
  }

  /// Says hello and returns the welcome.
  @discardableResult
  func hello() throws -> ServerMessage.Welcome {
    try send(.hello(protocolVersion: WireProtocol.version, client: nil))
    let answer = try receive()
    guard case let .welcome(welcome)? = answer else { throw DaemonTestError("expected a welcome, got \(String(describing: answer))") }
    return welcome
  }

  /// Attaches and returns the snapshot's state.
  func attach(_ scope: String) throws -> JSONValue {
    try send(.attach(scope: scope, since: nil))
    let seen = try receive { if case .snapshot(scope, _, _, _) = $0 { true } else { false } }
    guard case let .snapshot(_, _, state, _) = seen.last! else { fatalError() }
    return state
  }

  func close() {
    if fd >= 0 { Glibc.close(fd) }
    fd = -1
  }

  deinit { close() }
}
