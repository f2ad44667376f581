import ConcordJSON
import Foundation
import Synchronization

/// What an outbox last read of its queued actions, so that a window reading them on every
/// update opens (decrypts and parses) none again when nothing changed, and only the new ones
/// when something did.
///
/// SQLite's `PRAGMA data_version` changes when another connection (another window or command
/// of the home) commits; this connection's own writes are counted here. A queued row is never
/// rewritten once inserted, so an action opened before is the same while its sealed bytes are.
///
/// ```swift
/// if let same = memo.unchanged(version: version) { return same }
/// let action = memo.opened(cseq, sealed: bytes) ?? open(bytes)
/// memo.keep(read, version: version)        // each action with the bytes it was opened from
/// ```
final class QueuedMemo: Sendable {
  private struct Contents {
    var version: Int64?
    var writes = 0
    var actions: [QueuedAction] = []
  }

  private let contents = Mutex(Contents())
  /// Each action of the last read, by cseq, with the sealed bytes it was opened from.
  private let opened = MemoTable<Int64, Data, QueuedAction>(capacity: .max)
  private let writes = Atomic<Int>(0)

  /// This connection wrote to the outbox.
  func wrote() { writes.add(1, ordering: .relaxed) }

  /// The actions last kept, when nothing was written since (`version` is the connection's
  /// `data_version` now).
  func unchanged(version: Int64) -> [QueuedAction]? {
    let writes = writes.load(ordering: .relaxed)
    return contents.withLock { $0.version == version && $0.writes == writes ? $0.actions : nil }
  }

  /// The action `cseq` as opened before, if its sealed bytes are the same.
  func opened(_ cseq: Int64, sealed: Data) -> QueuedAction? {
    guard let known = opened.kept(cseq), known.input == sealed else { return nil }
    return known.output
  }

  /// Keeps the actions read at `version`, each with the sealed bytes it was opened from.
  func keep(_ read: [(sealed: Data, action: QueuedAction)], version: Int64) {
    let writes = writes.load(ordering: .relaxed)
    // Only what this read holds: an action removed since is not kept.
    opened.removeAll()
    for (sealed, action) in read { opened.keep(action, madeFrom: sealed, under: action.cseq) }
    contents.withLock { contents in
      contents.version = version
      contents.writes = writes
      contents.actions = read.map(\.action)
    }
  }
}
