import ConcordPlatform
import ConcordWire
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One connection to the daemon, greeted: send messages, receive them, with timeouts.
///
/// Blocking and single-threaded on purpose — a command or a window does one thing at a time —
/// with the descriptor exposed so a window can wait on it together with the keyboard. The
/// daemon's `ping`s are answered here, so callers never see them.
///
/// ```swift
/// let connection = try ClientConnection(socket: ConcordHome.resolve().socket, presence: false)
/// try connection.send(.attach(scope: "counter", since: nil))
/// let snapshot = try connection.receive(timeout: 5)   // the scope's whole state
/// connection.close()
/// ```
public final class ClientConnection {
  /// The daemon's greeting: the log's id and newest seq, the account it knows this peer as, the
  /// app it hosts and its scopes. Read it to tell which log the answers belong to.
  public private(set) var welcome = ServerMessage.Welcome(
    protocolVersion: 0, logID: "", user: "", seq: 0, app: "", scopes: [])
  /// The socket's descriptor, for a caller that waits on it with others (`poll` on it and the
  /// keyboard), then calls ``readAvailable()``; -1 once closed.
  public private(set) var fileDescriptor: Int32
  /// The newest seq of the daemon's log this connection was told of: the welcome's, then that
  /// of every snapshot, update and answer since. The log only grows while a connection lasts.
  public private(set) var newestSeq: Int64 = 0
  /// Where each read lands before it joins `buffer`: allocated once, not per read.
  private var chunk = [UInt8](repeating: 0, count: 65_536)
  private var buffer = ReadBuffer()
  /// Where the daemon's lines end, and how long one may be: the wire's one rule.
  private var framing = LineFraming()
  private let coding = WireCoding()

  /// Connects and says hello; throws ``ClientError/unreachable(_:)`` when no daemon answers.
  ///
  /// - Parameters:
  ///   - socket: the daemon's socket on this machine (`ConcordHome`'s `socket`).
  ///   - timeout: how many seconds to wait for the daemon's welcome.
  ///   - presence: true for a window a person has open (the app is told when it attaches
  ///     and detaches); false for a command, which the log then records only by its actions.
  public convenience init(socket: URL, timeout: Double = 5, presence: Bool) throws(ClientError) {
    try self.init(address: .socket(socket), timeout: timeout, presence: presence)
  }

  /// Connects to the daemon at `address` — its socket on this machine, or another machine's
  /// through this laptop's relay to it (``RelayLink``: one ssh channel for every window) — and
  /// says hello. A link through ssh that fails before the daemon's welcome throws why, in words
  /// that say what to do.
  ///
  /// - Parameters:
  ///   - address: where the daemon is.
  ///   - timeout: how many seconds to wait for the daemon's welcome (at least 15 through ssh,
  ///     where the login comes first).
  ///   - presence: true for a window a person has open; false for a command.
  public init(address: DaemonAddress, timeout: Double = 5, presence: Bool) throws(ClientError) {
    let hello = ClientMessage.hello(
      protocolVersion: WireProtocol.version, client: nil, presence: presence,
      updateIntervalMilliseconds: address.updateIntervalMilliseconds)
    // Over ssh the first answer waits for the login too.
    var wait = timeout
    switch address {
    case let .socket(socket):
      do throws(UnixSocketError) {
        fileDescriptor = try UnixSocket.connect(to: socket.path)
      } catch {
        throw ClientError(error)
      }
    case let .ssh(target):
      wait = max(timeout, 15)
      fileDescriptor = try RelayLink.open(to: target, greeting: Array(hello.line.utf8), timeout: wait)
    }
    do throws(ClientError) {
      if case .socket = address { try send(hello) }
      switch try receive(timeout: wait) {
      case let .welcome(welcome)?:
        self.welcome = welcome
        newestSeq = welcome.seq
      case let .error(_, message, _)?: throw ClientError.protocolError(message)
      case nil: throw ClientError.closed
      case let other?: throw ClientError.protocolError("expected a welcome, got \(other.typeName)")
      }
    } catch {
      close()
      // Through ssh, a connection the daemon ends before its welcome (it is stopping) is a daemon
      // out of reach: a `send` keeps its action queued.
      if case let .ssh(target) = address, error == .closed {
        throw .remoteUnreachable("\(target): the daemon closed the connection before it answered (is it stopping?)")
      }
      throw error
    }
  }

  deinit { close() }

  /// Writes `message`. While the socket takes no more, what the daemon sends is read into the
  /// buffer meanwhile: a daemon reads no further from a peer whose answers wait unread
  /// (backpressure), so a sender that only waited to write would wait on a daemon waiting on it.
  public func send(_ message: ClientMessage) throws(ClientError) {
    guard fileDescriptor >= 0 else { throw .closed }
    let bytes = Array(message.line.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes {
        Glibc.send(fileDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
      }
      if written < 0, errno == EINTR { continue }
      if written < 0, errno == EAGAIN || errno == EWOULDBLOCK {
        try awaitRoomToWrite()
        continue
      }
      guard written > 0 else { throw .closed }
      offset += written
    }
  }

  /// Waits until the socket takes bytes again, reading what arrives meanwhile.
  private func awaitRoomToWrite() throws(ClientError) {
    var poller = pollfd(fd: fileDescriptor, events: Int16(POLLOUT | POLLIN), revents: 0)
    guard poll(&poller, 1, -1) > 0 else { return }
    if poller.revents & Int16(POLLIN) != 0, try !readAvailable() { throw .closed }
  }

  /// The next message, waiting up to `timeout` seconds (forever when nil); nil when the daemon
  /// closed the connection. Throws ``ClientError/protocolError(_:)`` on timeout.
  public func receive(timeout: Double?) throws(ClientError) -> ServerMessage? {
    let deadline = timeout.map { Date().addingTimeInterval($0) }
    while true {
      if let message = try nextBufferedMessage() { return message }
      var waitMilliseconds: Int32 = -1
      if let deadline, let timeout {
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else { throw .protocolError("no answer within \(timeout) s") }
        waitMilliseconds = Int32(remaining * 1000) + 1
      }
      var poller = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, waitMilliseconds)
      if ready < 0, errno == EINTR { continue }
      guard ready > 0 else { continue }
      guard try readAvailable() else { return nil }
    }
  }

  /// Reads what the socket holds now, without waiting; false when the daemon closed it.
  public func readAvailable() throws(ClientError) -> Bool {
    guard fileDescriptor >= 0 else { return false }
    let count = chunk.withUnsafeMutableBytes { recv(fileDescriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
    if count < 0 { return errno == EAGAIN || errno == EINTR }
    if count == 0 { return false }
    buffer.append(chunk[..<count])
    // Bytes past one maximum line are looked at now, not when the message is read: a daemon
    // that never ends its line must not grow the buffer while a send waits for room.
    if buffer.unread.count > framing.maximumBytes + 1 { _ = try nextLine() }
    return true
  }

  /// The next whole line in the buffer, by the wire's framing; nil until it has all come.
  private func nextLine() throws(ClientError) -> LineFraming.Line? {
    do {
      return try framing.nextLine(in: buffer.unread)
    } catch {
      throw .protocolError(error.description)
    }
  }

  /// A complete message already read, if there is one; a `ping` is answered and skipped.
  public func nextBufferedMessage() throws(ClientError) -> ServerMessage? {
    while let next = try nextLine() {
      let line = buffer.unread[next.content]
      buffer.take(upTo: next.end)
      let message: ServerMessage
      do {
        message = try coding.decode(ServerMessage.self, from: line)
      } catch {
        throw .protocolError(error.description)
      }
      if message == .ping {
        try send(.pong)
        continue
      }
      if let seq = message.seq { newestSeq = max(newestSeq, seq) }
      return message
    }
    return nil
  }

  /// Closes the socket; the daemon sees the peer go (a window's presence ends). Safe to call
  /// more than once, and called when the connection is released.
  public func close() {
    if fileDescriptor >= 0 { Glibc.close(fileDescriptor) }
    fileDescriptor = -1
  }
}
