import Foundation

/// Where a client finds its daemon: the socket in a home on this machine, or a daemon on another
/// machine reached through ssh.
///
/// ```swift
/// let here = DaemonAddress.socket(ConcordHome.resolve().socket)
/// let there = DaemonAddress.ssh(try SSHTarget("ssh://alice@server"))
/// ```
public enum DaemonAddress: Sendable, Equatable, CustomStringConvertible {
  case socket(URL)
  case ssh(SSHTarget)

  public var description: String {
    switch self {
    case let .socket(url): url.path
    case let .ssh(target): target.description
    }
  }
}
