import ConcordLog

#if canImport(Glibc)
import Glibc
#endif

/// Who is at the other end of a connection, as the kernel reports it (SO_PEERCRED).
///
/// The user recorded in the log for an action is this account, never a name the client claims.
public struct PeerCredentials: Sendable, Equatable {
  public var pid: Int32
  public var uid: UInt32
  public var gid: UInt32

  public init(pid: Int32, uid: UInt32, gid: UInt32) {
    self.pid = pid
    self.uid = uid
    self.gid = gid
  }

  /// The account name of `uid`, or `uid N` when it has none.
  public var userName: String { Account.user(of: uid) }

  private var accountName: String? { Account.name(of: uid) }

  /// Whether the account belongs to the group `gid` (as its primary or a supplementary group).
  func isMember(ofGroup group: UInt32) -> Bool {
    if gid == group { return true }
    guard let name = accountName else { return false }
    var count: Int32 = 64
    var groups = [gid_t](repeating: 0, count: Int(count))
    if getgrouplist(name, gid, &groups, &count) < 0 {
      groups = [gid_t](repeating: 0, count: Int(count))
      guard getgrouplist(name, gid, &groups, &count) >= 0 else { return false }
    }
    return groups.prefix(Int(count)).contains(group)
  }
}
