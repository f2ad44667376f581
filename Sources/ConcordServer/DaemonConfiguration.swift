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
  /// Where the daemon listens: the home's `concordd.sock` unless `--socket` says otherwise.
  public var socketPath: String
  /// The action log's database: the home's `log.sqlite`.
  public var logURL: URL
  /// What unlocks the log: the home's key file (made on first start), another key file, or a
  /// passphrase.
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

  /// The configuration of a daemon whose files are all in `home`, with the defaults for the
  /// rest; change a property to differ.
  ///
  /// - Parameter home: the daemon's home directory (`CONCORD_HOME`).
  public init(home: URL) {
    let layout = ConcordHome(home)
    self.home = home
    self.socketPath = layout.socket.path
    self.logURL = layout.log
    self.key = .file(layout.key)
  }

  /// `$CONCORD_HOME`, else `$XDG_STATE_HOME/PROGRAM`, else `~/.local/state/PROGRAM`.
  ///
  /// - Parameters:
  ///   - program: the program whose home it is (`concord`, or an app's own program).
  ///   - environment: where the variables are read.
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
  /// The reason, in one line a person reads (`concordd` prints it before it exits 1).
  public var description: String
  /// A failure said in `description`.
  ///
  /// - Parameter description: the one-line reason.
  public init(_ description: String) { self.description = description }
}
