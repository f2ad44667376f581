import ConcordPlatform
import ConcordWire
import Dispatch
import Synchronization

/// The host's handle on one connected window: who it is, and where its messages go.
///
/// The host never waits on a window: it puts messages in the window's ``ConnectionQueue`` and the
/// window's connection writes them as fast as the window reads.
final class Connection: Sendable, Hashable {
  /// Unique while the daemon runs; the `window` of lifecycle events.
  let id: String
  let peer: PeerCredentials
  /// The peer's account name, looked up once: every action the window sends is recorded under it.
  let user: String
  let queue = ConnectionQueue()
  private let closer: @Sendable () -> Void
  private let presence = Atomic<Bool>(true)
  /// Whether the app is told when this connection attaches and detaches: true for a window a
  /// person has open, false for a command that said so in its `hello`.
  var announcesPresence: Bool {
    get { presence.load(ordering: .relaxed) }
    set { presence.store(newValue, ordering: .relaxed) }
  }
  /// Monotonic nanoseconds (0 for never) of: the last line the window sent, the `ping` it has
  /// not answered yet, and the moment its socket stopped taking bytes while messages waited.
  /// Atomics, not a lock: the connection touches them on every line.
  private let heardAt = Atomic<UInt64>(0)
  private let pingSentAt = Atomic<UInt64>(0)
  private let blockedSince = Atomic<UInt64>(0)
  private let inputPaused = Atomic<Bool>(false)

  init(id: String, peer: PeerCredentials, close: @escaping @Sendable () -> Void) {
    self.id = id
    self.peer = peer
    // In NFC, as every text from a peer is (`String.nfc`): an account name is compared and logged.
    self.user = peer.userName.nfc
    self.closer = close
    heardAt.store(Self.now, ordering: .relaxed)
  }

  /// Queues a message; a window that is too far behind is told so and disconnected.
  func send(_ message: ServerMessage) {
    if !queue.enqueue(message) { disconnect(reason: "the window is not reading its messages") }
  }

  /// Takes the place of an answer that comes after the commit: see ``ConnectionQueue``.
  func reserveAnswer() -> Int {
    let (place, kept) = queue.reserveAnswer()
    if !kept { disconnect(reason: "the window is not reading its messages") }
    return place
  }

  /// Sends the answer for a place taken with ``reserveAnswer()``.
  func answer(_ place: Int, with message: ServerMessage) {
    queue.fill(place, with: message)
  }

  /// Tells the window why, then closes its connection once that is written (or at once, when
  /// the window is not reading).
  func disconnect(reason: String) {
    guard queue.finish() else { return }
    _ = queue.enqueue(.error(code: .overloaded, message: "disconnected: \(reason)", cseq: nil))
    closer()
  }

  static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

  /// The window sent a line: it is alive.
  func heard() {
    heardAt.store(Self.now, ordering: .relaxed)
    pingSentAt.store(0, ordering: .relaxed)
  }

  /// The connection paused (true) or resumed (false) taking in what the window sends
  /// (backpressure). While input is paused what the window said — a `pong` among it — is not
  /// looked at, so it is neither pinged nor found dead; one that does not read its answers is
  /// still found stuck.
  func setInputPaused(_ paused: Bool) {
    guard inputPaused.exchange(paused, ordering: .relaxed) != paused else { return }
    if !paused { heard() }
  }

  /// Whether the window said nothing for `interval` and has no `ping` outstanding; if so, the
  /// caller sends one now.
  func needsPing(after interval: Duration, now: UInt64) -> Bool {
    guard !inputPaused.load(ordering: .relaxed), pingSentAt.load(ordering: .relaxed) == 0,
      now - heardAt.load(ordering: .relaxed) > interval.nanoseconds
    else { return false }
    pingSentAt.store(now, ordering: .relaxed)
    return true
  }

  /// How long the outstanding `ping` has gone unanswered.
  func pingUnansweredFor(now: UInt64) -> Duration? {
    guard !inputPaused.load(ordering: .relaxed) else { return nil }
    let sent = pingSentAt.load(ordering: .relaxed)
    return sent == 0 ? nil : .nanoseconds(Int64(now - sent))
  }

  /// The socket stopped (true) or resumed (false) taking bytes. Saying it stopped again keeps
  /// the moment it first stopped: a window whose scopes keep changing is told so at every
  /// change, and must still be found stuck once it has read nothing for the timeout.
  func setBlocked(_ blocked: Bool) {
    if blocked {
      _ = blockedSince.compareExchange(expected: 0, desired: Self.now, ordering: .relaxed)
    } else {
      blockedSince.store(0, ordering: .relaxed)
    }
  }

  /// How long the window has not been taking bytes while messages wait for it.
  func blockedFor(now: UInt64) -> Duration? {
    let since = blockedSince.load(ordering: .relaxed)
    return since == 0 ? nil : .nanoseconds(Int64(now - since))
  }

  static func == (a: Connection, b: Connection) -> Bool { a === b }
  func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension Duration {
  var nanoseconds: UInt64 {
    let (seconds, attoseconds) = components
    return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
  }
}
