/// The limits of the wire protocol that every peer relies on (DESIGN.md).
///
/// The protocol is newline-delimited JSON, one message a line, so that a person can talk to the
/// daemon with `socat - UNIX-CONNECT:$CONCORD_HOME/concordd.sock`.
public enum WireLimits {
  /// The largest message a peer may send or receive, in bytes, without its newline: 1 MiB.
  /// A longer line is an error for the peer that sent it, never a reason to grow a buffer.
  public static let maximumMessageBytes = 1 << 20
}

/// The protocol's version, said in `hello` and `welcome`.
public enum WireProtocol {
  public static let version = 1
}
