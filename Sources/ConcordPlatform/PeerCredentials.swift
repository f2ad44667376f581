#if canImport(Glibc)
import Glibc
#endif

/// Who is at the other end of a Unix socket, as the kernel reports it (`SO_PEERCRED`): the
/// daemon's account for each window, a relay's for each window it carries.
///
/// Laid out as Linux's `struct ucred` (pid, uid, gid), so that `getsockopt` fills it in place:
/// Glibc's Swift overlay does not export `ucred` without `_GNU_SOURCE`. The user recorded in the
/// log for an action is this account, never a name the client claims.
///
/// ```swift
/// if let peer = UnixSocket.peerCredentials(of: fd), peer.uid == getuid() { serve(fd) }
/// ```
public struct PeerCredentials: Sendable, Equatable {
  public var pid: Int32
  public var uid: UInt32
  public var gid: UInt32

  public init(pid: Int32 = 0, uid: UInt32 = 0, gid: UInt32 = 0) {
    self.pid = pid
    self.uid = uid
    self.gid = gid
  }

  /// The account name of `uid`, or `uid N` when it has none.
  public var userName: String { Account.user(of: uid) }

  /// Whether the account belongs to the group `group` (as its primary or a supplementary group).
  public func isMember(ofGroup group: UInt32) -> Bool {
    if gid == group { return true }
    guard let name = Account.name(of: uid) else { return false }
    var count: Int32 = 64
    var groups = [gid_t](repeating: 0, count: Int(count))
    if getgrouplist(name, gid, &groups, &count) < 0 {
      groups = [gid_t](repeating: 0, count: Int(count))
      guard getgrouplist(name, gid, &groups, &count) >= 0 else { return false }
    }
    return groups.prefix(Int(count)).contains(group)
  }
}
