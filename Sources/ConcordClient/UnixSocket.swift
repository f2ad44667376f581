#if canImport(Glibc)
import Glibc
#endif

/// Connecting to the daemon's Unix socket: the one piece every peer (the CLI, the benchmark,
/// the tests' raw peers) needs before speaking the protocol.
///
/// ```swift
/// let fd = try UnixSocket.connect(to: ConcordHome.resolve().socket.path)
/// ```
public enum UnixSocket {
  /// A connected, blocking stream socket (close-on-exec); ``ClientError/unreachable(_:)`` when
  /// nothing listens there.
  public static func connect(to path: String) throws(ClientError) -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw .unreachable(String(cString: strerror(errno))) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
      Glibc.close(fd)
      throw .unreachable("the socket path is too long: \(path)")
    }
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard result == 0 else {
      let reason = errno == ENOENT ? "no socket at \(path)" : "\(String(cString: strerror(errno))) at \(path)"
      Glibc.close(fd)
      throw .unreachable(reason)
    }
    return fd
  }

  /// The account at the other end of a connected Unix socket, as the kernel reports it
  /// (`SO_PEERCRED`); nil when it cannot be read.
  public static func peerUID(of fd: Int32) -> UInt32? {
    // Linux's `struct ucred` (pid, uid, gid), which Glibc's overlay exports only with _GNU_SOURCE.
    var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
    var size = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
    guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0 else { return nil }
    return credentials.uid
  }
}
