import ConcordApp
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
/// A window at the end of a slow link may ask for its scopes' changes at most once per interval
/// (``paceUpdates(every:release:)``): a change that comes sooner is held, its mark kept, until
/// the interval has passed, and is then sent merged with whatever came meanwhile. Updates before
/// an answer are never held, so the window still sees its own action's effect with its `ack`.
///
/// Answers go out in the order of what they answer, as the protocol promises: an action's
/// answer is known only after its commit, so the action takes a place in the queue when it is
/// read (``reserveAnswer()``) and nothing queued after it — a `pong`, a later attach's snapshot —
/// is written before that place is filled (``fill(_:with:)``). A scope's changes are not answers:
/// the changes of scopes whose first line the window has already been written go out while an
/// answer is awaited, and before it, so an `ack` always follows the updates of its commit.
///
/// ```swift
/// let place = queue.reserveAnswer()         // a send was read
/// queue.enqueue(.pong)                      // a ping after it: waits for the ack
/// queue.scopeChanged(published)             // the board as of seq 40, shared by all its windows
/// queue.fill(place, with: .ack(client: "w1", cseq: 3, seq: 40))
/// while let line = queue.nextLine() { write(line) }   // the update, the ack, the pong
/// ```
final class ConnectionQueue: Sendable {
  /// More queued messages than this and the window is disconnected: it is not reading.
  static let maximumQueued = 10_000

  private enum Item {
    case message(ServerMessage)
    /// The first line of a scope (its snapshot, made once and shared with other windows, or the
    /// update since a reconnecting window's state), which brings the window to `state`: the
    /// `attach`th attach on this connection; only the newest one of its scope counts.
    case attached(scope: String, line: String, state: PublishedState, attach: Int)
    case scopeChanged(String)
    /// The place of an answer that is known only once its action is committed.
    case answer(Int)
  }

  /// What the queue knows of one attached scope.
  private struct AttachedScope {
    let name: String
    /// The newest state of the scope.
    var latest: PublishedState
    /// The state (and its seq) the window has once everything written so far arrives; nil
    /// until the scope's first line is written.
    var delivered: (seq: Int64, state: JSONValue)?
    /// Whether a change mark for it is in the queue.
    var mark = ChangeMark.none
    /// The number of the attach that made it: an older attach's first line, still queued, does
    /// not say what the window has.
    let attach: Int

    /// Monotonic nanoseconds before which the window's pace holds this scope's next update
    /// (unless an answer follows it).
    var heldUntil: UInt64 = 0

    /// Whether the scope changed since the window was last written it (and it has the scope).
    var hasChange: Bool { mark == .queued && delivered != nil }
  }

  /// Whether a "this scope changed" mark stands in the queue: at most one a scope.
  private enum ChangeMark {
    case none
    case queued
  }

  /// Whether the queue takes what is given to it.
  private enum Intake {
    case open
    /// More than ``maximumQueued`` wait: the window is not reading, and is let go.
    case overflowed
    /// Nothing more is taken: what is queued is written, and the connection closes. Places
    /// still waiting for an answer will get none.
    case finished
  }

  private struct Contents {
    var queue: [Item] = []
    var head = 0
    /// The scopes the window is attached to. A window watches a few: an array searched by name
    /// (a short name is compared in one step) costs less than the dictionaries keyed by name it
    /// replaced, which hashed the name about eight times per update, for every window of a
    /// fan-out.
    var scopes: [AttachedScope] = []
    /// The number of the last attach on this connection, of any scope.
    var attaches = 0
    /// Messages that answer nothing (the daemon's own `ping`): written even while an answer is
    /// awaited.
    var pushes: [ServerMessage] = []
    /// Answers that came for reserved places, by place.
    var answers: [Int: ServerMessage] = [:]
    var nextPlace = 0
    /// Places taken whose answers are not yet written.
    var unanswered = 0
    var intake = Intake.open
    /// Called when something is queued: the connection schedules a write.
    var onReady: (@Sendable () -> Void)?
    /// How often the window may be written a scope's changes.
    var pace = UpdatePace()

    var count: Int { queue.count - head + pushes.count }

    var first: Item? { head < queue.count ? queue[head] : nil }

    mutating func popFirst() -> Item? {
      guard head < queue.count else { return nil }
      let item = queue[head]
      head += 1
      if head == queue.count {
        // Drained, as after nearly every write: the room is reused from the front. Kept until
        // 1,024 items were written instead, every window's queue grew with each update and a
        // thousand of them doubled their room at the same update (5–9 ms for the last window).
        queue.removeAll(keepingCapacity: true)
        head = 0
      } else if head > 1024, head * 2 > queue.count {
        queue.removeFirst(head)
        head = 0
      }
      return item
    }

    mutating func append(_ item: Item) {
      if count >= ConnectionQueue.maximumQueued, intake == .open { intake = .overflowed }
      queue.append(item)
    }

    func index(of scope: String) -> Int? { scopes.firstIndex { $0.name == scope } }

    /// The update of the scope at `index` if it changed since the window was last written its
    /// state, made now from what the window has; nil when nothing changed after all, or when the
    /// scope's first line is not written yet — then its mark is kept for the change mark queued
    /// after that line. The mark is spent wherever it stands in the queue: a later item for it
    /// finds none.
    mutating func update(at index: Int) -> QueuedLine? {
      guard scopes[index].mark == .queued, let delivered = scopes[index].delivered else { return nil }
      let latest = scopes[index].latest
      scopes[index].mark = .none
      scopes[index].delivered = (latest.seq, latest.state)
      if pace.isPaced { scopes[index].heldUntil = pace.nextUpdate(after: Connection.now) }
      return latest.updateLine(fromSeq: delivered.seq, state: delivered.state)
    }

    /// Whether the scope at `index` may be written its update now, unprompted by an answer
    /// (``UpdatePace/mayUpdate(heldUntil:now:)``).
    mutating func mayUpdate(_ index: Int) -> Bool {
      guard pace.isPaced else { return true }
      return pace.mayUpdate(heldUntil: scopes[index].heldUntil, now: Connection.now)
    }

    /// The next line to write: ``ConnectionQueue/nextQueuedLine()``.
    mutating func nextLine() -> QueuedLine? {
      if !pushes.isEmpty { return .own(pushes.removeFirst().line) }
      while let item = first {
        switch item {
        case let .answer(place):
          // Updates of scopes the window has go before an answer, and while one is awaited (as
          // often as the window's pace allows: only a paced window looks the answer up here).
          if let update = pendingUpdate(dueOnly: pace.isPaced && answers[place] == nil) { return update }
          if let answer = answers.removeValue(forKey: place) {
            _ = popFirst()
            unanswered -= 1
            return .own(answer.line)
          }
          // Waits for its answer, unless the window is being let go: then it will get none.
          guard intake == .finished else { return nil }
          _ = popFirst()
          unanswered -= 1
        case let .message(message):
          _ = popFirst()
          return .own(message.line)
        case let .attached(scope, line, state, attach):
          _ = popFirst()
          // Only the newest attach's line says what the window has; a detached scope has nothing.
          if let index = index(of: scope), scopes[index].attach == attach {
            scopes[index].delivered = (state.seq, state.state)
          }
          return .own(line)
        case let .scopeChanged(scope):
          _ = popFirst()
          // A mark already spent (by an update written before an answer) is passed over; one
          // held for the window's pace keeps its mark, and is queued again on release.
          if let index = index(of: scope), scopes[index].hasChange, mayUpdate(index), let line = update(at: index) {
            return line
          }
        }
      }
      return nil
    }

    /// The release asked for under the lock, to be scheduled once it is let go.
    mutating func takeRelease() -> (@Sendable () -> Void)? { pace.takeRelease() }

    /// An update of any scope the window already has that changed: written before an answer,
    /// and, as far as the window's pace allows (`dueOnly`), while one is awaited.
    mutating func pendingUpdate(dueOnly: Bool = false) -> QueuedLine? {
      var index = 0
      while index < scopes.count {
        if scopes[index].hasChange, !dueOnly || mayUpdate(index), let line = update(at: index) { return line }
        index += 1
      }
      return nil
    }
  }

  private let contents = Mutex(Contents())

  init() {}

  /// Sets what to call when there is something to write (the connection's write scheduler).
  func whenReady(_ ready: @escaping @Sendable () -> Void) {
    contents.withLock { $0.onReady = ready }
  }

  /// Holds each scope's changes to one update per `interval`, except before an answer; `release`
  /// is asked to call ``releaseHeldUpdates()`` after the nanoseconds it is given.
  ///
  /// ```swift
  /// queue.paceUpdates(every: .milliseconds(20)) { [weak queue] nanoseconds in
  ///   loop.scheduleTask(in: .nanoseconds(Int64(nanoseconds))) { queue?.releaseHeldUpdates() }
  /// }
  /// ```
  func paceUpdates(every interval: Duration, release: @escaping @Sendable (UInt64) -> Void) {
    contents.withLock { $0.pace = UpdatePace(every: interval.nanoseconds, release: release) }
  }

  /// Queues the changes held for the pace: their interval has passed.
  func releaseHeldUpdates() {
    let ready = contents.withLock { contents -> (@Sendable () -> Void)? in
      contents.pace.released()
      var held = false
      for scope in contents.scopes where scope.hasChange {
        contents.append(.scopeChanged(scope.name))
        held = true
      }
      return held ? contents.onReady : nil
    }
    ready?()
  }

  /// Queues a message that answers nothing the window sent (the daemon's `ping`): it does not
  /// wait behind an awaited answer.
  func push(_ message: ServerMessage) {
    let ready = contents.withLock {
      $0.pushes.append(message)
      return $0.onReady
    }
    ready?()
  }

  /// Queues a message. Returns false when the window is too far behind to keep.
  @discardableResult
  func enqueue(_ message: ServerMessage) -> Bool {
    let (kept, ready) = contents.withLock {
      $0.append(.message(message))
      return ($0.intake == .open, $0.onReady)
    }
    ready?()
    return kept
  }

  /// Takes a place in the queue for an answer that comes later (an action's, after its commit):
  /// nothing queued after it is written before it. `kept` is false once the queue takes nothing
  /// more (the window is not reading, or is being let go).
  func reserveAnswer() -> (place: Int, kept: Bool) {
    contents.withLock {
      let place = $0.nextPlace
      $0.nextPlace += 1
      $0.unanswered += 1
      $0.append(.answer(place))
      return (place, $0.intake == .open)
    }
  }

  /// Puts the answer in its place; what waited behind it can now be written.
  func fill(_ place: Int, with answer: ServerMessage) {
    let ready = contents.withLock {
      $0.answers[place] = answer
      return $0.onReady
    }
    ready?()
  }

  /// Starts a scope: `first` (the line of a snapshot, or of the update since the state a
  /// reconnecting window had) brings the window to `state`.
  func attach(_ scope: String, first line: String, state: PublishedState) {
    let ready = contents.withLock {
      $0.attaches += 1
      // Until its first line is written the window has nothing of the scope to update.
      let attached = AttachedScope(name: scope, latest: state, attach: $0.attaches)
      if let index = $0.index(of: scope) { $0.scopes[index] = attached } else { $0.scopes.append(attached) }
      $0.append(.attached(scope: scope, line: line, state: state, attach: $0.attaches))
      return $0.onReady
    }
    ready?()
  }

  func detach(_ scope: String) {
    contents.withLock { contents in
      if let index = contents.index(of: scope) { contents.scopes.remove(at: index) }
    }
  }

  /// Records a scope's new state; the window is sent the change when it is ready for it.
  func scopeChanged(_ state: PublishedState) {
    let scope = state.scope
    let ready: (@Sendable () -> Void)? = contents.withLock {
      guard let index = $0.index(of: scope) else { return nil }
      $0.scopes[index].latest = state
      guard $0.scopes[index].mark == .none else { return nil }
      $0.scopes[index].mark = .queued
      $0.append(.scopeChanged(scope))
      return $0.onReady
    }
    ready?()
  }

  /// The next line to write, as text: ``nextQueuedLine()``.
  func nextLine() -> String? { nextQueuedLine()?.text }

  /// The next line to write, with a scope's change made now from what the window has; nil when
  /// nothing can be written yet (the queue is empty, or waits for an answer).
  func nextQueuedLine() -> QueuedLine? {
    let (line, release) = contents.withLock { contents in (contents.nextLine(), contents.takeRelease()) }
    // Scheduled outside the lock, as `onReady` is called: a release may come back to the queue.
    release?()
    return line
  }

  /// No more messages will be taken: the connection closes once what is queued is written.
  /// Returns false when it was already finished.
  @discardableResult
  func finish() -> Bool {
    contents.withLock { contents in
      guard contents.intake != .finished else { return false }
      contents.intake = .finished
      return true
    }
  }

  /// Whether nothing waits to be written: no message, and no change held for the window's pace
  /// (a window that shut its write side is closed only once it has it).
  var isEmpty: Bool { contents.withLock { $0.count == 0 && (!$0.pace.isPaced || !$0.scopes.contains(where: \.hasChange)) } }

  /// How many actions the window sent whose answers are not written yet (``WriterShare`` says
  /// how many it may have before it is read no further).
  var unanswered: Int { contents.withLock { $0.unanswered } }
}
