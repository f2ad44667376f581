#if canImport(Glibc)
import ConcordPlatform
import ConcordWire
import Glibc
#endif

/// Copies bytes both ways between a pair of descriptors (standard input and output) and a
/// connected socket until the socket closes: what `concord dial-stdio` runs on a server, so that
/// OpenSSH carries a remote window's connection to the daemon there.
///
/// Half-closes pass through: the end of the input shuts the socket's write side (the daemon then
/// answers what it was sent and closes), and the socket's end ends the relay. Each read is at
/// most 64 KiB; each is written in full before the next read, so the relay holds no more than that.
///
/// ```swift
/// let socket = try UnixSocket.connect(to: home.socket.path)
/// StreamRelay.run(input: STDIN_FILENO, output: STDOUT_FILENO, socket: socket)
/// ```
public enum StreamRelay {
  /// Relays until the socket reaches its end or either side fails; true when it ended cleanly.
  @discardableResult
  public static func run(input: Int32, output: Int32, socket: Int32) -> Bool {
    // A closed output (the ssh session gone) is a failed write, not a signal that kills us.
    signal(SIGPIPE, SIG_IGN)
    var buffer = [UInt8](repeating: 0, count: 65_536)
    var inputOpen = true
    while true {
      var pollers = [
        pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
        pollfd(fd: inputOpen ? input : -1, events: Int16(POLLIN), revents: 0),
      ]
      guard poll(&pollers, 2, -1) >= 0 else {
        if errno == EINTR { continue }
        return false
      }
      if pollers[0].revents != 0 {
        let count = read(socket, &buffer, buffer.count)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return count == 0 }
        guard writeAll(buffer, count: count, to: output) else { return false }
      }
      if inputOpen, pollers[1].revents != 0 {
        let count = read(input, &buffer, buffer.count)
        if count < 0, errno == EINTR { continue }
        if count <= 0 {
          inputOpen = false
          shutdown(socket, Int32(SHUT_WR))
        } else if !writeAll(buffer, count: count, to: socket) {
          return false
        }
      }
    }
  }

  private static func writeAll(_ bytes: [UInt8], count: Int, to fd: Int32) -> Bool {
    var offset = 0
    while offset < count {
      let written = bytes[offset..<count].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { return false }
      offset += written
    }
    return true
  }
}
