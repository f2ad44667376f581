/// The daemon runtime: hosts a composed reducer, keeps its log, and serves derived child stores
/// (scopes) to windows over a Unix socket. See DESIGN.md, "One action, end to end".
///
/// Only the namespace exists so far; the runtime builds on `Concord`, `ConcordWire` and
/// `ConcordLog`.
public enum ConcordServer {
  /// The name of the daemon's socket inside `CONCORD_HOME`.
  public static let socketName = "concordd.sock"
}
