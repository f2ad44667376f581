import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A group and two accounts made for one test with `groupadd` and `useradd`, and removed after
/// it: what another person's process can reach is only seen from another account. Needs root.
///
/// ```swift
/// let accounts = try TestAccounts()
/// defer { accounts.remove() }
/// let result = try accounts.run(as: accounts.member, "/bin/true", [])
/// ```
public struct TestAccounts {
  public struct Account {
    public var name: String
    public var uid: UInt32
    public var gid: UInt32
  }

  /// The group `member` belongs to and `outsider` does not.
  public let group: String
  public let gid: UInt32
  public let member: Account
  public let outsider: Account

  /// Whether this process may make accounts.
  public static var canCreate: Bool { getuid() == 0 }

  public init() throws {
    let suffix = UUID().uuidString.lowercased().prefix(6)
    group = "cg\(suffix)"
    let memberName = "cm\(suffix)"
    let outsiderName = "co\(suffix)"
    do {
      try Self.administer("/usr/sbin/groupadd", [group])
      // No home, no login, no group of their own: accounts that exist only to own processes.
      try Self.administer("/usr/sbin/useradd", ["-M", "-N", "-s", "/usr/sbin/nologin", "-G", group, memberName])
      try Self.administer("/usr/sbin/useradd", ["-M", "-N", "-s", "/usr/sbin/nologin", outsiderName])
      guard let entry = getgrnam(group) else { throw DriveError("groupadd made no group \(group)") }
      gid = entry.pointee.gr_gid
      member = try Self.account(memberName)
      outsider = try Self.account(outsiderName)
    } catch {
      Self.remove(users: [memberName, outsiderName], group: group)
      throw error
    }
  }

  public func remove() {
    Self.remove(users: [member.name, outsider.name], group: group)
  }

  /// Runs `executable` as `account` (its own uid, primary group and supplementary groups, as a
  /// login would give it), to its end; standard output and error together.
  public func run(as account: Account, _ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let output = "/tmp/accounts-\(UUID().uuidString.prefix(8)).out"
    defer { try? FileManager.default.removeItem(atPath: output) }
    return try Spawn.run(
      "/usr/bin/setpriv",
      ["--reuid=\(account.uid)", "--regid=\(account.gid)", "--init-groups", "--", executable] + arguments,
      environment: ["PATH": "/usr/bin:/bin", "HOME": "/"], output: .file(output))
  }

  private static func account(_ name: String) throws -> Account {
    guard let entry = getpwnam(name) else { throw DriveError("useradd made no account \(name)") }
    return Account(name: name, uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid)
  }

  private static func remove(users: [String], group: String) {
    for user in users { _ = try? Spawn.run("/usr/sbin/userdel", [user], output: .discard) }
    _ = try? Spawn.run("/usr/sbin/groupdel", [group], output: .discard)
  }

  private static func administer(_ tool: String, _ arguments: [String]) throws {
    let result = try Spawn.run(tool, arguments, output: .capture)
    guard result.status == 0 else { throw DriveError("\(tool) \(arguments.joined(separator: " ")) failed (\(result.status))") }
  }
}
