import ConcordWire
import Synchronization

/// What waits to be written to one window, bounded however slowly the window reads.
///
/// Messages (acks, errors, snapshots) queue in order. A scope's state does not: the queue holds
/// at most one "this scope changed" mark per scope, and the state it stands for is the newest,
/// taken when the mark is written. So a window that falls behind gets one update per scope with
/// everything it missed — a diff from the state it was last sent, or the whole state when that
/// is smaller — and never a backlog of intermediate states.
///
/// ```swift
/// outbox.enqueue(.ack(client: "w1", cseq: 3, seq: 40))
/// outbox.scopeChanged("board", seq: 40, state: json, bytes: json.jsonText.utf8.count)
/// while let message = outbox.next() { write(message) }
/// ```
final class WindowOutbox: Sendable {
  /// More queued messages than this and the window is disconnected: it is not reading.
  static let maximumQueued = 10_000

  private enum Item {
    case message(ServerMessage)
    case scopeChanged(String)
  }

  private struct Contents {
    var queue: [Item] = []
    var head = 0
    /// Scopes with a change mark in the queue.
    var marked: Set<String> = []
    /// The newest state of each attached scope, its seq, and the size of its JSON text.
    var latest: [String: (seq: Int64, state: JSONValue, bytes: Int)] = [:]
    /// The state the window has of each scope once everything written so far arrives.
    var delivered: [String: JSONValue] = [:]
    var overflowed = false
    /// Called when something is queued: the connection schedules a write.
    var onReady: (@Sendable () -> Void)?
    var finished = false

    var count: Int { queue.count - head }

    mutating func append(_ item: Item) {
      if count >= WindowOutbox.maximumQueued { overflowed = true }
      queue.append(item)
    }

    mutating func removeMark(_ scope: String) {
      guard marked.remove(scope) != nil else { return }
      queue.removeAll { if case .scopeChanged(scope) = $0 { true } else { false } }
    }
  }

  private let contents = Mutex(Contents())

  init() {}

  /// Sets what to call when there is something to write (the connection's write scheduler).
  func whenReady(_ ready: @escaping @Sendable () -> Void) {
    contents.withLock { $0.onReady = ready }
  }

  private func signal(_ ready: (@Sendable () -> Void)?) {
    ready?()
  }

  /// Queues a message. Returns false when the window is too far behind to keep.
  @discardableResult
  func enqueue(_ message: ServerMessage) -> Bool {
    let (kept, ready) = contents.withLock {
      $0.append(.message(message))
      return (!$0.overflowed, $0.onReady)
    }
    signal(ready)
    return kept
  }

  /// Starts a scope with its whole state: the snapshot a window gets when it attaches.
  func attach(_ scope: String, snapshot message: ServerMessage, seq: Int64, state: JSONValue) {
    let ready = contents.withLock {
      $0.removeMark(scope)
      $0.latest[scope] = (seq, state, 0)
      $0.delivered[scope] = state
      $0.append(.message(message))
      return $0.onReady
    }
    signal(ready)
  }

  func detach(_ scope: String) {
    contents.withLock {
      $0.removeMark(scope)
      $0.latest[scope] = nil
      $0.delivered[scope] = nil
    }
  }

  /// Records a scope's new state; the window is sent the change when it is ready for it.
  /// `bytes` is the size of the state's JSON text, measured once by the caller for all windows.
  func scopeChanged(_ scope: String, seq: Int64, state: JSONValue, bytes: Int) {
    let ready: (@Sendable () -> Void)? = contents.withLock {
      guard $0.latest[scope] != nil else { return nil }
      $0.latest[scope] = (seq, state, bytes)
      guard $0.marked.insert(scope).inserted else { return nil }
      $0.append(.scopeChanged(scope))
      return $0.onReady
    }
    signal(ready)
  }


  /// The next message to write, with a scope's change computed now from what the window has.
  func next() -> ServerMessage? {
    contents.withLock { contents in
      while contents.head < contents.queue.count {
        let item = contents.queue[contents.head]
        contents.head += 1
        if contents.head > 1024, contents.head * 2 > contents.queue.count {
          contents.queue.removeFirst(contents.head)
          contents.head = 0
        }
        switch item {
        case let .message(message):
          return message
        case let .scopeChanged(scope):
          contents.marked.remove(scope)
          guard let latest = contents.latest[scope] else { continue }
          let delivered = contents.delivered[scope]
          contents.delivered[scope] = latest.state
          guard let delivered else {
            return .update(scope: scope, seq: latest.seq, change: .reset(latest.state))
          }
          let diff = StateDiff.between(delivered, latest.state)
          if diff.isEmpty { continue }
          return .update(
            scope: scope, seq: latest.seq, change: diff.encodedSize < latest.bytes ? .diff(diff) : .reset(latest.state))
        }
      }
      return nil
    }
  }

  /// No more messages will be taken: the connection closes once what is queued is written.
  /// Returns false when it was already finished.
  @discardableResult
  func finish() -> Bool {
    contents.withLock { contents in
      defer { contents.finished = true }
      return !contents.finished
    }
  }

  var isEmpty: Bool { contents.withLock { $0.count == 0 } }
}
