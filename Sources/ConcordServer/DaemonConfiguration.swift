import ConcordLog
import ConcordPlatform
import ConcordWire
import Foundation

/// Where the daemon keeps its files and how it runs: the command-line contract of the README.
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
  /// as long again; a window that takes no bytes for this long while messages wait is dropped
  /// too.
  public var pingInterval: Duration = .seconds(30)

  public init(home: URL) {
    let layout = ConcordHome(home)
    self.home = home
    self.socketPath = layout.socket.path
    self.logURL = layout.log
    self.key = .file(layout.key)
  }

  /// `$CONCORD_HOME`, else `$XDG_STATE_HOME/PROGRAM`, else `~/.local/state/PROGRAM`.
  public static func defaultHome(
    program: String = "concord", environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    ConcordHome.resolve(program: program, environment: environment).directory
  }
}

extension DaemonConfiguration {
  var connectionTiming: Liveness.Timing {
    Liveness.Timing(pingInterval: pingInterval, pingTimeout: pingInterval, stuckTimeout: pingInterval)
  }
}

/// Why the daemon cannot start or had to stop, in one line.
public struct DaemonError: Error, Sendable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}
