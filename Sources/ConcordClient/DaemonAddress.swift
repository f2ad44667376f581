import ConcordPlatform
import Foundation

/// Where a client finds its daemon: the socket in a home on this machine, or a daemon on another
/// machine reached through ssh.
///
/// ```swift
/// let here = DaemonAddress.socket(ConcordHome.resolve().socket)
/// let there = DaemonAddress.ssh(try SSHTarget("ssh://alice@server"))
/// ```
public enum DaemonAddress: Sendable, Equatable, CustomStringConvertible {
  /// The daemon's Unix socket on this machine (`ConcordHome`'s `socket`): the kernel tells the
  /// daemon who connects.
  case socket(URL)
  /// A daemon on another machine, reached through this account's relay and its one ssh
  /// connection to that server (``RelayLink``).
  case ssh(SSHTarget)

  /// How often, at most, a connection to this address asks the daemon for its scopes' changes
  /// (`hello`'s `update_interval_ms`; 0 for every change as it is committed).
  ///
  /// Through ssh, every update crosses three processes on its way (`concord dial-stdio`, `sshd`
  /// and the `ssh` master), which cost more than the daemon itself; 20 ms is about a frame of a
  /// terminal, so a person sees no difference, and a window gets about one update per action it
  /// sends (the one written before its `ack`) instead of one per commit of every window.
  public var updateIntervalMilliseconds: Int {
    switch self {
    case .socket: 0
    case .ssh: 20
    }
  }

  /// The address as messages name it: the socket's path, or the `ssh://` URL.
  public var description: String {
    switch self {
    case let .socket(url): url.path
    case let .ssh(target): target.description
    }
  }
}
