import ConcordLog
import Foundation

/// Where the daemon keeps its files and how it runs: the command-line contract of DESIGN.md.
///
/// ```swift
/// var configuration = DaemonConfiguration(home: DaemonConfiguration.defaultHome())
/// configuration.snapshotInterval = 500
/// ```
public struct DaemonConfiguration: Sendable {
  /// `CONCORD_HOME`: the directory (mode 0700) of the socket, the log and the key.
  public var home: URL
  public var socketPath: String
  public var logURL: URL
  public var key: KeySource
  /// A snapshot of the state is taken every this many entries.
  public var snapshotInterval: Int64 = 1000
  /// A group whose members may connect too (the socket is then 0660); by default only the
  /// daemon's own account may.
  public var allowGroup: String?
  /// A window quiet for this long is sent a `ping`, and dropped if it does not answer within
  /// as long again.
  public var pingInterval: Duration = .seconds(30)

  public init(home: URL) {
    self.home = home
    self.socketPath = home.appending(path: ConcordServer.socketName).path
    self.logURL = home.appending(path: "log.sqlite")
    self.key = .file(home.appending(path: "key"))
  }

  /// `$CONCORD_HOME`, else `$XDG_STATE_HOME/concord`, else `~/.local/state/concord`.
  public static func defaultHome(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
    if let home = environment["CONCORD_HOME"], !home.isEmpty { return URL(filePath: home) }
    if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return URL(filePath: state).appending(path: "concord") }
    let user = environment["HOME"].map { URL(filePath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
    return user.appending(path: ".local/state/concord")
  }
}

extension DaemonConfiguration {
  var windowTiming: WindowRegistry.Timing {
    WindowRegistry.Timing(pingInterval: pingInterval, pingTimeout: pingInterval, stuckTimeout: .seconds(30))
  }
}

/// Why the daemon cannot start or had to stop, in one line.
public struct DaemonError: Error, Sendable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}
