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
/// outbox.scopeChanged(published)            // the board as of seq 40, shared by all its windows
/// while let line = outbox.nextLine() { write(line) }
/// ```
final class WindowOutbox: Sendable {
  /// More queued messages than this and the window is disconnected: it is not reading.
  static let maximumQueued = 10_000

  private enum Item {
    case message(ServerMessage)
    /// A line made once and shared with other windows (a scope's snapshot).
    case line(String)
    case scopeChanged(String)
  }

  private struct Contents {
    var queue: [Item] = []
    var head = 0
    /// Scopes with a change mark in the queue.
    var marked: Set<String> = []
    /// The newest state of each attached scope.
    var latest: [String: PublishedState] = [:]
    /// The state (and its seq) the window has of each scope once everything written so far
    /// arrives.
    var delivered: [String: (seq: Int64, state: JSONValue)] = [:]
    var overflowed = false
    /// Called when something is queued: the connection schedules a write.
    var onReady: (@Sendable () -> Void)?
    var finished = false

    var count: Int { queue.count - head }

    mutating func popFirst() -> Item? {
      guard head < queue.count else { return nil }
      let item = queue[head]
      head += 1
      if head > 1024, head * 2 > queue.count {
        queue.removeFirst(head)
        head = 0
      }
      return item
    }

    mutating func append(_ item: Item) {
      if count >= WindowOutbox.maximumQueued { overflowed = true }
      queue.append(item)
    }

    mutating func removeMark(_ scope: String) {
      guard marked.remove(scope) != nil else { return }
      // Only the unsent part: items before `head` were written and must not shift it.
      queue.removeSubrange(..<head)
      head = 0
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

  /// Starts a scope: `first` (the line of a snapshot, or of the update since the state a
  /// reconnecting window had) brings the window to `state`.
  func attach(_ scope: String, first line: String, state: PublishedState) {
    let ready = contents.withLock {
      $0.removeMark(scope)
      $0.latest[scope] = state
      $0.delivered[scope] = (state.seq, state.state)
      $0.append(.line(line))
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
  func scopeChanged(_ state: PublishedState) {
    let scope = state.scope
    let ready: (@Sendable () -> Void)? = contents.withLock {
      guard $0.latest[scope] != nil else { return nil }
      $0.latest[scope] = state
      guard $0.marked.insert(scope).inserted else { return nil }
      $0.append(.scopeChanged(scope))
      return $0.onReady
    }
    signal(ready)
  }


  /// The next line to write, with a scope's change made now from what the window has.
  func nextLine() -> String? {
    contents.withLock { contents in
      while let item = contents.popFirst() {
        switch item {
        case let .message(message):
          return message.line
        case let .line(line):
          return line
        case let .scopeChanged(scope):
          contents.marked.remove(scope)
          guard let latest = contents.latest[scope] else { continue }
          let delivered = contents.delivered[scope]
          contents.delivered[scope] = (latest.seq, latest.state)
          guard let delivered else {
            return ServerMessage.update(scope: scope, seq: latest.seq, change: .reset(latest.state)).line
          }
          if let line = latest.updateLine(fromSeq: delivered.seq, state: delivered.state) { return line }
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
