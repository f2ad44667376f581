/// The layout of Linux's `struct ucred`, which `SO_PEERCRED` fills: who is at the other end of
/// a Unix socket, as the kernel reports it. Glibc's Swift overlay does not export it without
/// `_GNU_SOURCE`. Both ends read it: the daemon of each window, a relay of each window.
///
/// ```swift
/// var credentials = KernelPeerCredentials()
/// var size = socklen_t(MemoryLayout<KernelPeerCredentials>.size)
/// getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size)   // credentials.uid
/// ```
public struct KernelPeerCredentials: Sendable {
  public var pid: Int32 = 0
  public var uid: UInt32 = 0
  public var gid: UInt32 = 0

  public init() {}
}
