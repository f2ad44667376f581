import Foundation

/// Where Concord keeps its files: the part of the contract (README, "The command line") that the daemon and every
/// client must agree on.
///
/// ```swift
/// let home = ConcordHome.resolve()          // $CONCORD_HOME, else $XDG_STATE_HOME/concord, …
/// home.socket.path                          // …/concordd.sock
/// ```
public struct ConcordHome: Sendable, Equatable {
  public var directory: URL

  public init(_ directory: URL) {
    self.directory = directory
  }

  /// `$CONCORD_HOME`, else `$XDG_STATE_HOME/PROGRAM`, else `~/.local/state/PROGRAM`: each
  /// program built on Concord (`concord`, or an app's own) has a home of its own by default.
  public static func resolve(
    program: String = "concord", environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> ConcordHome {
    if let home = environment["CONCORD_HOME"], !home.isEmpty { return ConcordHome(URL(filePath: home)) }
    if let state = environment["XDG_STATE_HOME"], !state.isEmpty {
      return ConcordHome(URL(filePath: state).appending(path: program))
    }
    let user = environment["HOME"].map { URL(filePath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
    return ConcordHome(user.appending(path: ".local/state").appending(path: program))
  }

  /// The daemon's socket (mode 0600).
  public var socket: URL { directory.appending(path: "concordd.sock") }
  /// The action log's database.
  public var log: URL { directory.appending(path: "log.sqlite") }
  /// The key file (mode 0600).
  public var key: URL { directory.appending(path: "key") }
  /// The client's outbox and last-seen states.
  public var outbox: URL { directory.appending(path: "outbox.sqlite") }
  /// The daemon's pid file (locked while it runs).
  public var pidFile: URL { directory.appending(path: "concordd.pid") }
  /// Where `concord daemon start` sends the daemon's output.
  public var daemonLog: URL { directory.appending(path: "concordd.log") }
}
