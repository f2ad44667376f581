/// How many actions a connection may have unanswered (read, their answers not yet written)
/// before it is read no further: many while it is the only one writing, so that a script
/// pipelining a thousand actions fills each group commit; few while others write too, so that
/// each commit is shared out among the writers instead of taken by the fastest. A window has one
/// action in flight; a peer that writes without reading stalls itself at the limit.
///
/// It lives on the event loop, like the connections: it needs no lock.
///
/// ```swift
/// writers.sent(from: connection)                                        // a send was read
/// if connection.queue.unanswered >= writers.limit(for: connection) { }  // read no more of it for now
/// ```
final class WriterShare: @unchecked Sendable {
  /// The limit of a connection that is the only one writing.
  static let alone = 32
  /// The limit while another connection wrote in the last ``recent`` nanoseconds. Measured in the
  /// hostile suite's pipelining flood: a good window's p99 was 1.8–2.4× its quiet one with 4,
  /// 6× with 8 and 6–8× with 32 (2 was no better than 4).
  static let shared = 4
  static let recent: UInt64 = 100_000_000

  /// The two connections that sent an action last (the last one, and the one before that was
  /// not it), and when.
  private var last: (id: ObjectIdentifier, at: UInt64)?
  private var previous: (id: ObjectIdentifier, at: UInt64)?

  /// `connection` sent an action now.
  func sent(from connection: Connection, now: UInt64 = Connection.now) {
    let id = ObjectIdentifier(connection)
    if last?.id != id { previous = last }
    last = (id, now)
  }

  /// How many unanswered actions `connection` may have now.
  func limit(for connection: Connection, now: UInt64 = Connection.now) -> Int {
    let other = last?.id == ObjectIdentifier(connection) ? previous : last
    guard let other, now &- other.at < Self.recent else { return Self.alone }
    return Self.shared
  }
}
