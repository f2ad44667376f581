import ConcordWire
import Synchronization

/// The host's handle on one connected window: who it is, and where its messages go.
///
/// The host never waits on a window: it puts messages in the window's ``WindowOutbox`` and the
/// window's own writer sends them as fast as the window reads.
final class WindowLink: Sendable, Hashable {
  /// Unique while the daemon runs; the `window` of lifecycle events.
  let id: String
  let peer: PeerCredentials
  let outbox = WindowOutbox()
  private let closer: @Sendable () -> Void
  /// The scopes this window is attached to (as written, `card:42`).
  let attached = Mutex<Set<String>>([])
  /// When the write under way began; nil when the writer is idle.
  let lastWriteStarted = Mutex<ContinuousClock.Instant?>(nil)

  init(id: String, peer: PeerCredentials, close: @escaping @Sendable () -> Void) {
    self.id = id
    self.peer = peer
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

  static func == (a: WindowLink, b: WindowLink) -> Bool { a === b }
  func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
