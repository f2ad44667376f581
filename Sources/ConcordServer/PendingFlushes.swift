import NIOCore

/// The windows with something to write, written together at the end of this turn of the loop:
/// a commit's updates reach a thousand windows in one task instead of a task each (each task is
/// a closure allocated and put in the loop's locked queue). Counted by callgrind
/// (`scripts/bench.sh instructions fan-out`), a window's update cost 8.8 k instructions with a
/// task each and 7.6 k with this.
///
/// It lives on the one event loop every window and the host run on, so it needs no lock.
///
/// ```swift
/// registry.flushes.add(handler)    // handler.flushQueue() runs once this turn ends
/// ```
final class PendingFlushes: @unchecked Sendable {
  private let eventLoop: any EventLoop
  private var due: [ConnectionHandler] = []
  /// The array being written, kept to be reused: no allocation a turn.
  private var writing: [ConnectionHandler] = []
  private var scheduled = false

  init(eventLoop: any EventLoop) {
    self.eventLoop = eventLoop
  }

  /// Writes `handler`'s queue at the end of this turn of the loop, with the others added in it.
  func add(_ handler: ConnectionHandler) {
    due.append(handler)
    guard !scheduled else { return }
    scheduled = true
    eventLoop.assumeIsolated().execute { self.flush() }
  }

  private func flush() {
    scheduled = false
    // A window written now may make another due (an answer releasing held lines): that one is
    // added to `due`, and written by the next task, which `add` schedules.
    swap(&due, &writing)
    for handler in writing { handler.flushQueue() }
    writing.removeAll(keepingCapacity: true)
  }
}
