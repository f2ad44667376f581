import Synchronization

/// A thread-safe list that effects append to, so tests can see what happened and in what order.
final class Journal<Entry: Sendable>: Sendable {
  private let entries = Mutex<[Entry]>([])

  func append(_ entry: Entry) { entries.withLock { $0.append(entry) } }
  var all: [Entry] { entries.withLock { $0 } }
}
