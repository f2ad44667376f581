import NIOCore

/// Whether what a window sends is taken in now, held, or left unread in its socket: the
/// backpressure of ``ConnectionHandler``, as a machine told what happens and whether the window
/// is saturated (it has as many actions unanswered as it may), with no channel of its own.
///
/// Lines are handled in the order they came. While the window is saturated, a line already read
/// is held and the channel's next read is deferred, so a peer that writes without reading fills
/// its own socket; as answers are written, held lines are handled as far as room allows, and
/// only then is a deferred read made. Once the window's input has ended (it half-closed, or sent
/// a line too long), nothing more it sends is taken.
///
/// ```swift
/// if let line = gate.lineRead(line, saturated: isSaturated()) { handle(line) }
/// while let line = gate.nextHeld(saturated: isSaturated()) { handle(line) }
/// if gate.resumeReading(saturated: isSaturated()) { context.read() }
/// ```
struct ReadGate<Line> {
  /// Lines read while the window was saturated, oldest first: at most what the reads before the
  /// pause brought.
  private(set) var held = CircularBuffer<Line>()
  /// The channel asked to read while the window was saturated: the read waits.
  private(set) var readDeferred = false
  /// The window's input ended: what it sent before is still handled, nothing after.
  private(set) var inputEnded = false

  /// Whether the daemon is not looking at what the window sends now (lines held, or a read
  /// deferred): its `pong` may be among them.
  var isPaused: Bool { readDeferred || !held.isEmpty }

  /// A line came: returned to be handled now, or nil — held, behind held lines or while the
  /// window is saturated; dropped, after the input's end.
  mutating func lineRead(_ line: Line, saturated: Bool) -> Line? {
    guard !inputEnded else { return nil }
    if !held.isEmpty || saturated {
      held.append(line)
      return nil
    }
    return line
  }

  /// The channel asks to read more: true to read now; false when the read must wait.
  mutating func readRequested(saturated: Bool) -> Bool {
    if !held.isEmpty || saturated {
      readDeferred = true
      return false
    }
    return true
  }

  /// The next held line to handle, while the window is not saturated (ask again after handling
  /// it: handling an action makes it one closer to saturated).
  mutating func nextHeld(saturated: Bool) -> Line? {
    guard !saturated, !held.isEmpty else { return nil }
    return held.removeFirst()
  }

  /// Whether to make the deferred read now: nothing is held and there is room.
  mutating func resumeReading(saturated: Bool) -> Bool {
    guard readDeferred, held.isEmpty, !saturated else { return false }
    readDeferred = false
    return true
  }

  /// The window's input ended (a half-close, or a line too long).
  mutating func endInput() {
    inputEnded = true
  }

  /// Whether the connection may close now: its input ended, everything it sent was handled, and
  /// every answer was written (`queueEmpty`).
  func mayClose(queueEmpty: Bool) -> Bool {
    inputEnded && held.isEmpty && queueEmpty
  }
}
