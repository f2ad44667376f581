import ConcordLog
import ConcordPlatform
import ConcordWire
import Foundation

/// What programs around the daemon need to know of it without running one: where in a home it
/// listens. The daemon itself is ``ConcordDaemon``.
///
/// ```swift
/// ConcordServer.socketName   // "concordd.sock"
/// ```
public enum ConcordServer {
  /// The name of the daemon's socket inside `CONCORD_HOME`.
  public static var socketName: String { ConcordHome(URL(filePath: "/")).socket.lastPathComponent }
}
