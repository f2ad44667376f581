import Foundation

/// Where a window stands with the daemon, as a machine: away until its next try is due,
/// connecting (through ssh, beside the window), connected, held back after the daemon's log
/// went back, or let go. It holds the connection and the attempt it is given, and decides
/// when to try again (``Backoff``); the session does the connecting.
///
/// ```swift
/// var link = SessionLink<ClientConnection, ConnectionAttempt>()
/// link.isDue(at: now)                    // true: the first try is at once
/// link.lost(at: now, jitter: 1)          // offline, the next try in 0.25 s
/// link.connected(connection)             // the next loss waits 0.25 s again
/// ```
struct SessionLink<Connection, Attempt> {
  enum State {
    /// Away; the next try is due at `retryAt`.
    case offline(retryAt: Date)
    /// A connection is being made beside the window.
    case connecting(Attempt)
    case connected(Connection)
    /// The daemon's log went back: nothing is sent to it until a person decides; it is looked
    /// at again at `retryAt`.
    case heldBack(retryAt: Date)
    /// Its owner let it go: no more tries.
    case closed
  }

  private(set) var state = State.offline(retryAt: .distantPast)
  /// The wait after the next failure.
  private(set) var backoff = Backoff(first: 0.25, limit: 2)
  /// How long a daemon whose log went back is left alone before it is looked at again.
  static var heldBackFor: TimeInterval { 5 }

  var connection: Connection? {
    if case let .connected(connection) = state { connection } else { nil }
  }

  var attempt: Attempt? {
    if case let .connecting(attempt) = state { attempt } else { nil }
  }

  /// When the next try is due, while the window is away and not trying.
  var retryAt: Date? {
    switch state {
    case let .offline(retryAt), let .heldBack(retryAt): retryAt
    case .connecting, .connected, .closed: nil
    }
  }

  /// Whether there is something to do at `now`: a try due, or an attempt to look at.
  func isDue(at now: Date) -> Bool {
    switch state {
    case let .offline(retryAt), let .heldBack(retryAt): now >= retryAt
    case .connecting: true
    case .connected, .closed: false
    }
  }

  /// A connection is being made beside the window.
  mutating func connecting(_ attempt: Attempt) { state = .connecting(attempt) }

  /// The daemon answered: the next loss waits the first wait again.
  mutating func connected(_ connection: Connection) {
    state = .connected(connection)
    backoff.reset()
  }

  /// The connection (or the try) failed at `now`: away until the backoff's next wait, with
  /// `jitter` of it (random, unless a test says).
  mutating func lost(at now: Date, jitter: Double = Double.random(in: 0.5...1)) {
    state = .offline(retryAt: now.addingTimeInterval(backoff.next(jitter: jitter)))
  }

  /// The daemon's log went back: away, and looked at again a while later.
  mutating func holdBack(at now: Date) { state = .heldBack(retryAt: now.addingTimeInterval(Self.heldBackFor)) }

  /// Its owner let it go.
  mutating func close() { state = .closed }
}
