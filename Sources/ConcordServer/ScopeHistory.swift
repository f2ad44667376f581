import ConcordApp
import ConcordWire

/// The last few states of one attached scope, each with the seq it took effect: what lets a
/// window that reconnects with `since` get the changes since then instead of the whole state.
///
/// A stretch of seqs when the scope was not watched (no window attached) is unknown: a window
/// cannot have seen a state of the scope then, and a `since` there gets a whole snapshot.
struct ScopeHistory {
  /// How many states are kept per scope.
  static let depth = 16

  /// Ascending by seq; a nil state marks a stretch that is unknown.
  private var entries: [(seq: Int64, state: JSONValue?)] = []

  init(seq: Int64, state: JSONValue) {
    entries = [(seq, state)]
  }

  /// The scope changed to `state` at `seq`.
  mutating func record(_ state: JSONValue, at seq: Int64) {
    entries.append((seq, state))
    if entries.count > Self.depth { entries.removeFirst(entries.count - Self.depth) }
  }

  /// Nobody watched the scope after `restedAt` until `seq`, when it is `state`.
  mutating func resume(after restedAt: Int64, at seq: Int64, state: JSONValue) {
    if seq > restedAt { entries.append((restedAt + 1, nil)) }
    record(state, at: seq)
  }

  /// The scope's state as of `seq`, if it is known.
  func state(at seq: Int64) -> JSONValue? {
    entries.last { $0.seq <= seq }?.state ?? nil
  }
}
