import ConcordLog
import ConcordPlatform
import ConcordWire
import Foundation

/// The daemon runtime: hosts a composed reducer, keeps its log, and serves derived child stores
/// (scopes) to windows over a Unix socket. See ARCHITECTURE.md, "One action, end to end", and
/// ``ConcordDaemon``.
public enum ConcordServer {
  /// The name of the daemon's socket inside `CONCORD_HOME`.
  public static var socketName: String { ConcordHome(URL(filePath: "/")).socket.lastPathComponent }
}
