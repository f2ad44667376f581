import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Who the file system lets reach the daemon's socket: the home's and the socket's owner, group
/// and mode, made to match the ``PeerPolicy``.
///
/// The policy decides who is welcomed once connected; the file system decides who can connect at
/// all. Without `--allow-group` only the daemon's account can: the home is 0700 and the socket
/// 0600. With it, the group's members must be able to connect too, so both belong to that group:
/// the home 0710 (the members may pass through it to the socket, but not list it, and every file
/// in it is the daemon's alone) and the socket 0660.
struct HomeAccess: Sendable {
  /// The group let in, if one is.
  let group: (name: String, gid: UInt32)?

  /// - Parameter groupName: `--allow-group`, whose id the policy looked up.
  init(policy: PeerPolicy, groupName: String?) {
    if let groupName, let gid = policy.allowedGroup {
      group = (groupName, gid)
    } else {
      group = nil
    }
  }

  /// Creates the home (0700) if it is missing and refuses one another account owns;
  /// ``share(home:)`` gives it its mode and group once the daemon holds the home's lock.
  func prepare(home: URL) throws(DaemonError) {
    do {
      try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw DaemonError("cannot create \(home.path): \(error.localizedDescription)")
    }
    var info = stat()
    guard stat(home.path, &info) == 0 else { throw DaemonError("cannot read \(home.path)") }
    guard info.st_uid == getuid() else {
      throw DaemonError("\(home.path) belongs to uid \(info.st_uid), not to this account; refusing to put a socket there")
    }
  }

  /// Gives the home to the group (0710), or closes it again (0700) when there is none. Only the
  /// daemon that holds the home's lock may: a second start that fails must not change the mode
  /// of a running daemon's home.
  func share(home: URL) throws(DaemonError) {
    var info = stat()
    guard stat(home.path, &info) == 0 else { throw DaemonError("cannot read \(home.path)") }
    if let group {
      try give(home.path, to: group)
      guard chmod(home.path, 0o710) == 0 else { throw DaemonError("cannot make \(home.path) 0710: \(Self.reason())") }
    } else if info.st_mode & 0o7077 != 0 {
      // A home opened to a group by an earlier run (or by hand) is closed again.
      guard chmod(home.path, 0o700) == 0 else { throw DaemonError("cannot make \(home.path) 0700: \(Self.reason())") }
    }
  }

  /// Gives the socket just bound (0600) to the group and makes it 0660; without a group it stays
  /// 0600.
  func open(socket path: String) throws(DaemonError) {
    guard let group else { return }
    try give(path, to: group)
    guard chmod(path, 0o660) == 0 else { throw DaemonError("cannot make \(path) 0660: \(Self.reason())") }
  }

  private func give(_ path: String, to group: (name: String, gid: UInt32)) throws(DaemonError) {
    guard chown(path, uid_t.max, group.gid) == 0 else {
      let hint = errno == EPERM ? " (the daemon's account must be a member of \(group.name))" : ""
      throw DaemonError("cannot give \(path) to group \(group.name): \(Self.reason())\(hint)")
    }
  }

  private static func reason() -> String { String(cString: strerror(errno)) }
}
