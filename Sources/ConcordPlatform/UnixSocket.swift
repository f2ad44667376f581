#if canImport(Glibc)
import Glibc
#endif

/// Unix sockets: connecting to the daemon's (the one piece every peer — the CLI, the
/// benchmark, the tests' raw peers — needs before speaking the protocol), and listening, as the
/// daemon and the relay do: the one way a socket is made that nobody else may connect to.
///
/// ```swift
/// let fd = try UnixSocket.connect(to: ConcordHome.resolve().socket.path)
/// ```
public enum UnixSocket {
  /// A connected, blocking stream socket (close-on-exec); ``UnixSocketError/unreachable(_:)``
  /// when nothing listens there.
  public static func connect(to path: String) throws(UnixSocketError) -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw .unreachable(String(cString: strerror(errno))) }
    guard var address = address(of: path) else {
      Glibc.close(fd)
      throw .unreachable("the socket path is too long: \(path)")
    }
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

  /// A listening stream socket at `path` (close-on-exec), born readable and writable by this
  /// account alone (0600): no moment where another could connect. A socket left at `path` (a
  /// crashed listener's) is replaced; anything else there is refused, not removed. Throws why
  /// not, in words.
  ///
  /// ```swift
  /// let listener = try UnixSocket.listen(at: socketPath, backlog: 64)
  /// ```
  public static func listen(at path: String, backlog: Int32) throws(UnixSocketError) -> Int32 {
    guard var address = address(of: path) else { throw .local("the socket path is too long: \(path)") }
    var existing = stat()
    if lstat(path, &existing) == 0 {
      guard existing.st_mode & S_IFMT == S_IFSOCK else { throw .local("\(path) exists and is not a socket; refusing to replace it") }
      unlink(path)
    }
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw .local("a socket could not be made: \(String(cString: strerror(errno)))") }
    // Linux makes the socket's file with the socket's own mode (less the umask): set here, not
    // through the umask, which is the whole process's and may be another thread's to change.
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        fchmod(fd, 0o600) == 0 ? bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) : -1
      }
    }
    guard bound == 0, Glibc.listen(fd, backlog) == 0 else {
      let reason = String(cString: strerror(errno))
      Glibc.close(fd)
      throw .local("no socket could be made at \(path): \(reason)")
    }
    return fd
  }

  /// The longest path a Unix socket can have, in bytes (`sun_path` less its terminating NUL).
  public static let maximumPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

  /// The address of the socket at `path`; nil when the path is too long for one.
  private static func address(of path: String) -> sockaddr_un? {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count <= maximumPathBytes else { return nil }
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    return address
  }

  /// Who is at the other end of a connected Unix socket, as the kernel reports it
  /// (`SO_PEERCRED`); nil when it cannot be read.
  public static func peerCredentials(of fd: Int32) -> PeerCredentials? {
    var credentials = PeerCredentials()
    var size = socklen_t(MemoryLayout<PeerCredentials>.size)
    guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0 else { return nil }
    return credentials
  }
}

/// Why a Unix socket could not be connected to or made, in words.
public enum UnixSocketError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Nothing listens there (no socket, or nobody accepting).
  case unreachable(String)
  /// A socket could not be made here (the path, the system).
  case local(String)

  public var description: String {
    switch self {
    case let .unreachable(reason), let .local(reason): reason
    }
  }
}
