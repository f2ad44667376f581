import ConcordClient
import ConcordPlatform
import ConcordWire
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A connection to a daemon that writes bytes and reads lines: blocking while a driver sets
/// up, non-blocking once a load loop drives it with poll(2). Usually a Unix socket; any
/// descriptor that speaks the protocol will do (the local end of an `ssh` running
/// `concord dial-stdio`). What a script or an attacker would be: the tests' raw peer too.
public final class LineSocket: @unchecked Sendable {
  // @unchecked: one thread at a time drives a socket (a test hands it over, never shares it).
  public let fd: Int32
  private var end: (() -> Void)?
  private var buffer: [UInt8] = []
  /// Where the unread part of `buffer` starts: lines are consumed without moving the rest.
  private var start = 0
  private var chunk = [UInt8](repeating: 0, count: 65_536)

  public init(path: String) throws {
    let fd = try UnixSocket.connect(to: path)
    self.fd = fd
    end = { Glibc.close(fd) }
  }

  /// A connection on `fileDescriptor`, ended by `close` (which closes the descriptor).
  public init(fileDescriptor: Int32, close: @escaping () -> Void) {
    fd = fileDescriptor
    end = close
  }

  deinit { close() }

  /// Ends the connection (once; again is nothing).
  public func close() {
    end?()
    end = nil
  }

  public func write(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if written < 0 && errno == EAGAIN {
        var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        _ = poll(&poller, 1, 1000)
        continue
      }
      guard written > 0 else { throw DriveError("write: \(String(cString: strerror(errno)))") }
      offset += written
    }
  }

  public func write(_ text: String) throws { try write(Array(text.utf8)) }

  /// The next line, waiting up to `timeout` seconds for it; nil when the daemon closed the
  /// connection first. Throws when no line came in time.
  public func readLine(timeout: Double = 30) throws -> String? {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if let line = nextBufferedLine() { return line }
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { throw DriveError("no line within \(timeout) s; have \(buffer.count - start) bytes") }
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, Int32(remaining * 1000)) > 0 else { continue }
      guard try fill() else { return nextBufferedLine() }
    }
  }

  /// The next line, which must come within `timeout` seconds.
  public func expectLine(timeout: Double = 30) throws -> String {
    guard let line = try readLine(timeout: timeout) else { throw DriveError("the daemon closed the connection") }
    return line
  }

  /// Reads what the socket holds now; false when the peer closed.
  public func fill() throws -> Bool {
    if start > 0 && start == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      start = 0
    } else if start > 65_536 {
      buffer.removeFirst(start)
      start = 0
    }
    let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    if count < 0 {
      if errno == EAGAIN || errno == EINTR { return true }
      throw DriveError("read: \(String(cString: strerror(errno)))")
    }
    if count == 0 { return false }
    buffer.append(contentsOf: chunk[..<count])
    return true
  }

  /// A complete line already read, if there is one.
  public func nextBufferedLine() -> String? {
    nextLine().map { String(decoding: $0, as: UTF8.self) }
  }

  /// The bytes of the next complete line (without its newline), if one has been read.
  public func nextLine() -> ArraySlice<UInt8>? {
    guard let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
    let line = buffer[start..<newline]
    start = newline + 1
    return line
  }

  public func setNonBlocking() {
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
  }
}

/// What went wrong while driving a daemon, in words.
public struct DriveError: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}
