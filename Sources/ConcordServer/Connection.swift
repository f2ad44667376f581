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
  /// Whether the window is alive: told what happens, asked its verdict each second (its state
  /// under a lock the loop alone takes, but for the registry's second check).
  private let liveness: Mutex<Liveness>

  init(id: String, peer: PeerCredentials, close: @escaping @Sendable () -> Void) {
    self.id = id
    self.peer = peer
    // In NFC, as every text from a peer is (`String.nfc`): an account name is compared and logged.
    self.user = peer.userName.nfc
    self.closer = close
    liveness = Mutex(Liveness(at: Self.now))
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
    let now = Self.now
    liveness.withLock { $0.heard(at: now) }
  }

  /// The connection paused (true) or resumed (false) taking in what the window sends
  /// (backpressure): see ``Liveness/setInputPaused(_:at:)``.
  func setInputPaused(_ paused: Bool) {
    liveness.withLock { $0.setInputPaused(paused, at: Self.now) }
  }

  /// The socket stopped (true) or resumed (false) taking bytes: see ``Liveness/setBlocked(_:at:)``.
  func setBlocked(_ blocked: Bool) {
    liveness.withLock { $0.setBlocked(blocked, at: Self.now) }
  }

  /// What to do with the window at `now` (a `ping` verdict marks the ping sent).
  func liveness(at now: UInt64, timing: Liveness.Timing) -> Liveness.Verdict {
    liveness.withLock { $0.verdict(at: now, timing: timing) }
  }

  static func == (a: Connection, b: Connection) -> Bool { a === b }
  func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

