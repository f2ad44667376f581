import ConcordWire
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A line socket as a test's peer of the daemon: messages sent and received, bytes written
/// without waiting, the write side shut, bytes taken and dropped as a slow window would.
extension LineSocket {
  /// Writes `message` as its line.
  public func send(_ message: ClientMessage) throws {
    try write(message.line)
  }

  /// The next message from the daemon; nil when it closed the connection.
  public func receive(timeout: TimeInterval = 10) throws -> ServerMessage? {
    guard let line = try readLine(timeout: timeout) else { return nil }
    return try WireCoding().decode(ServerMessage.self, from: Array(line.utf8))
  }

  /// Reads messages until one matches; the others are returned too.
  @discardableResult
  public func receive(until matches: (ServerMessage) -> Bool, timeout: TimeInterval = 10) throws -> [ServerMessage] {
    var seen: [ServerMessage] = []
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      guard let message = try receive(timeout: max(0.01, deadline.timeIntervalSinceNow)) else {
        throw DriveError("connection closed; saw \(seen)")
      }
      seen.append(message)
      if matches(message) { return seen }
    }
  }

  /// Every line until the daemon closes the connection; throws if it is still open after
  /// `timeout`.
  public func linesUntilClosed(timeout: TimeInterval = 10) throws -> [String] {
    var lines: [String] = []
    let deadline = Date().addingTimeInterval(timeout)
    while let line = try readLine(timeout: max(0.01, deadline.timeIntervalSinceNow)) { lines.append(line) }
    return lines
  }

  /// Says hello and returns the welcome.
  @discardableResult
  public func hello() throws -> ServerMessage.Welcome {
    try send(.hello(protocolVersion: WireProtocol.version, client: nil))
    let answer = try receive()
    guard case let .welcome(welcome)? = answer else { throw DriveError("expected a welcome, got \(String(describing: answer))") }
    return welcome
  }

  /// Attaches and returns the snapshot's state.
  public func attach(_ scope: String) throws -> JSONValue {
    try send(.attach(scope: scope, since: nil))
    let seen = try receive { if case .snapshot(scope, _, _, _) = $0 { true } else { false } }
    guard case let .snapshot(_, _, state, _)? = seen.last else { throw DriveError("no snapshot of \(scope)") }
    return state
  }

  /// A window of `daemon`, welcomed and attached to `scope`.
  public static func window(of daemon: DaemonUnderTest, attachedTo scope: String) throws -> LineSocket {
    let window = try LineSocket(path: daemon.socketPath)
    try window.hello()
    _ = try window.attach(scope)
    return window
  }

  /// Writes what the socket takes now, without waiting: how many bytes (0 when it takes none),
  /// or nil once the daemon has closed the connection.
  public func writeWithoutWaiting(_ bytes: ArraySlice<UInt8>) -> Int? {
    let written = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    if written >= 0 { return written }
    return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : nil
  }

  /// Shuts the write side, as `printf … | socat - UNIX-CONNECT:…` does at the end of its input:
  /// the daemon reads end of file but can still answer.
  public func shutdownWrite() {
    _ = shutdown(fd, Int32(SHUT_WR))
  }

  /// Takes at most `count` bytes from the socket and drops them, as a window that draws slowly
  /// would: how many it took (0 when none were waiting), or nil once the daemon has closed the
  /// connection.
  public func discard(upTo count: Int) -> Int? {
    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, 0) > 0 else { return 0 }
    var chunk = [UInt8](repeating: 0, count: count)
    let taken = recv(fd, &chunk, count, 0)
    return taken > 0 ? taken : nil
  }

  /// How many bytes the daemon has sent that this socket has not read yet.
  public var unreadBytes: Int {
    var count: Int32 = 0
    return ioctl(fd, UInt(FIONREAD), &count) == 0 ? Int(count) : 0
  }
}
