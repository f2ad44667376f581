import ConcordWire
import Dispatch
import Synchronization

/// The host's handle on one connected window: who it is, and where its messages go.
///
/// The host never waits on a window: it puts messages in the window's ``WindowOutbox`` and the
/// window's own writer sends them as fast as the window reads.
final class WindowLink: Sendable, Hashable {
  /// Unique while the daemon runs; the `window` of lifecycle events.
  let id: String
  let peer: PeerCredentials
  /// The peer's account name, looked up once: every action the window sends is recorded under it.
  let user: String
  let outbox = WindowOutbox()
  private let closer: @Sendable () -> Void
  /// When the write under way began, in nanoseconds of the monotonic clock; 0 when the writer
  /// is idle. An atomic, not a lock: it is set around every message written.
  private let writeStartedNanoseconds = Atomic<UInt64>(0)

  init(id: String, peer: PeerCredentials, close: @escaping @Sendable () -> Void) {
    self.id = id
    self.peer = peer
    self.user = peer.userName
    self.closer = close
  }

  /// Queues a message; a window that is too far behind is told so and disconnected.
  func send(_ message: ServerMessage) {
    if !outbox.enqueue(message) { disconnect(reason: "the window is not reading its messages") }
  }

  func disconnect(reason: String) {
    _ = outbox.enqueue(.error(code: .overloaded, message: "disconnected: \(reason)", cseq: nil))
    outbox.finish()
    closer()
  }

  func writeStarted() {
    writeStartedNanoseconds.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
  }

  func writeFinished() {
    writeStartedNanoseconds.store(0, ordering: .relaxed)
  }

  /// How long the write under way has taken so far; nil when none is under way.
  var timeInCurrentWrite: Duration? {
    let started = writeStartedNanoseconds.load(ordering: .relaxed)
    guard started != 0 else { return nil }
    return .nanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - started))
  }

  static func == (a: WindowLink, b: WindowLink) -> Bool { a === b }
  func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
