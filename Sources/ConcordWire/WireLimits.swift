/// The limits of the wire protocol that every peer relies on (README, "The daemon").
///
/// The protocol is newline-delimited JSON, one message a line, so that a person can talk to the
/// daemon with `socat - UNIX-CONNECT:$CONCORD_HOME/concordd.sock`.
public enum WireLimits {
  /// The largest message a peer may send or receive, in bytes, without its newline: 1 MiB.
  /// A longer line is an error for the peer that sent it, never a reason to grow a buffer.
  public static let maximumMessageBytes = 1 << 20

  /// The longest scope name a peer may give (`chat:general`), in bytes: answers repeat it.
  public static let maximumScopeBytes = 1_024

  /// The longest a window may ask the daemon to hold its scopes' changes (`hello`'s
  /// `update_interval_ms`), in milliseconds: a second, so that a window is never far behind.
  public static let maximumUpdateIntervalMilliseconds = 1_000

  /// The most of a text (a refusal's reason, an error's message) a message carries, in bytes:
  /// a reason that quotes what a peer sent must not make a line longer than the limit.
  public static let maximumReasonBytes = 4_096

  /// The most a scope's state may take as JSON text: a snapshot or an update of it, with its
  /// envelope (and room for the small differences between encoders' number and escape forms),
  /// still fits in one line.
  public static func maximumStateBytes(scope: String) -> Int {
    maximumMessageBytes - 4_096 - scope.utf8.count
  }

  /// `text` cut to at most ``maximumReasonBytes`` bytes, at a character boundary, with `…` where
  /// it was cut.
  ///
  /// ```swift
  /// WireLimits.bounded("nobody called " + String(repeating: "u", count: 600_000))   // 4,096 bytes
  /// ```
  public static func bounded(_ text: String) -> String {
    guard text.utf8.count > maximumReasonBytes else { return text }
    var kept = ""
    var bytes = 0
    let ellipsis = " …"
    for character in text {
      bytes += character.utf8.count
      if bytes > maximumReasonBytes - ellipsis.utf8.count { break }
      kept.append(character)
    }
    return kept + ellipsis
  }
}

/// The protocol's version, said in `hello` and `welcome`.
public enum WireProtocol {
  public static let version = 1
}
