import Foundation

/// A daemon on another machine, reached through OpenSSH: `ssh://[USER@]HOST[:PORT][/HOME]`.
///
/// `HOST` may be an alias of `~/.ssh/config`; `/HOME` names the daemon's home on the server
/// (a team daemon run by a service account), else the daemon of the account that logs in runs in
/// its default home.
///
/// ```swift
/// let target = try SSHTarget("ssh://alice@server:2222/srv/concord")
/// target.user      // "alice"
/// target.home      // "/srv/concord"
/// target.name      // "alice@server:2222/srv/concord": its local home is remotes/<name, escaped>
/// ```
public struct SSHTarget: Sendable, Equatable, CustomStringConvertible {
  /// The account to log in as; nil leaves it to ssh (`~/.ssh/config`, else this account's name).
  public var user: String?
  /// The server: a host name, an address, or an alias of `~/.ssh/config`.
  public var host: String
  /// The ssh port; nil leaves it to ssh (22, or what `~/.ssh/config` says).
  public var port: Int?
  /// The daemon's home on the server (`/srv/concord`); nil for the default home of the account
  /// that logs in.
  public var home: String?

  /// Reads a target from its URL, as `--host` and `CONCORD_HOST` give it.
  ///
  /// Throws ``ClientError/usage(_:)`` for what is no `ssh://` URL, and for a host or user name
  /// that starts with `-` (ssh would read it as an option).
  ///
  /// - Parameter text: `ssh://[USER@]HOST[:PORT][/HOME]`.
  public init(_ text: String) throws(ClientError) {
    guard let url = URLComponents(string: text), url.scheme?.lowercased() == "ssh" else {
      throw .usage("a host is written ssh://[USER@]HOST[:PORT][/HOME], such as ssh://alice@server; not \(text)")
    }
    guard let host = url.host, !host.isEmpty else { throw .usage("\(text) names no host") }
    guard url.query == nil, url.fragment == nil, url.password == nil else {
      throw .usage("\(text): a host takes no password, query or fragment; ssh://[USER@]HOST[:PORT][/HOME]")
    }
    // What starts with `-` would reach ssh as an option (`-oProxyCommand=…`): never a name.
    for part in [host, url.user ?? ""] where part.hasPrefix("-") || part.contains(where: { $0.isWhitespace || $0.isNewline }) {
      throw .usage("\(text): \"\(part)\" is not a host or user name")
    }
    self.host = host
    user = url.user.flatMap { $0.isEmpty ? nil : $0 }
    port = url.port
    home = url.path.isEmpty || url.path == "/" ? nil : url.path
  }

  /// `USER@HOST:PORT/HOME`, each part only when given: the remote's name, in messages and for
  /// its local home.
  public var name: String {
    (user.map { "\($0)@" } ?? "") + host + (port.map { ":\($0)" } ?? "") + (home ?? "")
  }

  /// The target as people write it: `ssh://` and its ``name``.
  public var description: String { "ssh://" + name }

  /// The target as a URL that ``init(_:)`` reads back as the same target (its parts escaped).
  public var url: String {
    var components = URLComponents()
    components.scheme = "ssh"
    components.user = user
    components.host = host
    components.port = port
    components.path = home ?? ""
    return components.string ?? description
  }
}
