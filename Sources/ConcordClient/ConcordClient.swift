/// The client side of Concord: connection, reconnect, the offline outbox and cache.
///
/// Only the namespace exists so far; the `concord` command line builds on it.
public enum ConcordClient {
  /// Exit codes of the `concord` command line, as DESIGN.md fixes them.
  public enum ExitCode: Int32, Sendable {
    case success = 0
    case failure = 1
    case usage = 2
    case daemonUnreachable = 3
  }
}
