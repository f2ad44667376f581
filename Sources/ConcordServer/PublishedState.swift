import ConcordApp
import ConcordWire
import NIOCore
import Synchronization

/// A scope's state as one commit left it, handed to every window on the scope.
///
/// Most windows had the scope's previous state, so their update is the same line: it is made
/// once, on first use, and shared. A window that fell behind gets its own diff from the state
/// it has.
final class PublishedState: Sendable {
  let scope: String
  let seq: Int64
  let state: JSONValue
  /// The size of `state`'s JSON text: what a whole-state `reset` costs.
  let bytes: Int
  /// The seq of the state this one follows; nil for the first.
  let previousSeq: Int64?
  private let sharedLine = Mutex<ByteBuffer??>(nil)
  private let sharedSnapshots = Mutex<(current: String?, logReplaced: String?)>((nil, nil))

  init(scope: String, seq: Int64, state: JSONValue, bytes: Int, previousSeq: Int64?) {
    self.scope = scope
    self.seq = seq
    self.state = state
    self.bytes = bytes
    self.previousSeq = previousSeq
  }

  /// The `snapshot` line of this state, made on first use and shared by every window that
  /// attaches while it is current. With `logReplaced`, the snapshot also tells the window that
  /// the state it had came from another log: after a log is replaced, every window that
  /// reconnects gets that one, all at once.
  func snapshotLine(logReplaced: Bool = false) -> String {
    sharedSnapshots.withLock { lines in
      if let line = logReplaced ? lines.logReplaced : lines.current { return line }
      let made = ServerMessage.snapshot(scope: scope, seq: seq, state: state, logReplaced: logReplaced).line
      if logReplaced { lines.logReplaced = made } else { lines.current = made }
      return made
    }
  }

  /// The update line for a window that has `delivered` (as of `deliveredSeq`), or nil when
  /// that is already this state. A window that had the previous state gets the line shared by
  /// all of them (``QueuedLine/shared(_:)``).
  func updateLine(fromSeq deliveredSeq: Int64, state delivered: JSONValue) -> QueuedLine? {
    guard deliveredSeq == previousSeq else { return Self.updateLine(from: delivered, to: self).map(QueuedLine.own) }
    let bytes = sharedLine.withLock { line in
      if let line { return line }
      let made = Self.updateLine(from: delivered, to: self).map { ByteBuffer(string: $0) }
      line = made
      return made
    }
    return bytes.map(QueuedLine.shared)
  }

  /// The `update` line from `old` to `new`: a diff, or the whole state when the diff is not
  /// smaller (``ServerMessage/updateLine(scope:seq:from:to:newBytes:)``); nil when `old` is
  /// `new`'s state already.
  static func updateLine(from old: JSONValue, to new: PublishedState) -> String? {
    ServerMessage.updateLine(scope: new.scope, seq: new.seq, from: old, to: new.state, newBytes: new.bytes)
  }
}
