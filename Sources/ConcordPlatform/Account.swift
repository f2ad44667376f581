#if canImport(Glibc)
import Glibc
#endif

/// Accounts of this machine, as the password database names them: who a peer is to the daemon,
/// and who a window expects the daemon to say it is.
///
/// ```swift
/// Account.name(of: getuid())   // "alice"
/// ```
public enum Account {
  /// The name `uid` has in the password database, if any.
  public static func name(of uid: UInt32) -> String? {
    var record = passwd()
    var result: UnsafeMutablePointer<passwd>?
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getpwuid_r(uid, &record, &buffer, buffer.count, &result) == 0, result != nil, let name = record.pw_name
    else { return nil }
    return String(cString: name)
  }

  /// The name the daemon gives `uid`: its account name, or `uid N` when it has none.
  public static func user(of uid: UInt32) -> String { name(of: uid) ?? "uid \(uid)" }

  /// The name the daemon gives this process's account.
  public static var current: String { user(of: getuid()) }
}
