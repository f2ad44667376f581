import Foundation

extension ActionLog {
  /// Walks the entries as ``forEachEntry(from:through:_:)`` does, on two threads: a thread of its
  /// own reads each entry, opens its seal, checks its link in the chain and hands it to
  /// `prepare`; the calling thread gives what `prepare` made to `body`, in order. A boot opens
  /// entries on one core while the other decodes and reduces them.
  ///
  /// At most a few thousand prepared entries wait between the two, so memory stays flat however
  /// long the log is. Errors are those of the one-thread walk: the log's first broken entry is
  /// thrown once `body` has taken every entry before it; an error of `prepare` or `body` ends
  /// the walk and is rethrown as it is. The reading thread has ended when this returns.
  ///
  /// ```swift
  /// try log.forEachEntry(from: 1, preparing: { try JSONValue(parsing: $0.record.action) }) { json in
  ///   state = try reduce(state, json)
  /// }
  /// ```
  public func forEachEntry<Prepared: Sendable>(
    from: Int64 = 1, through: Int64? = nil, preparing prepare: @escaping @Sendable (LogEntry) throws -> Prepared,
    _ body: (Prepared) throws -> Void
  ) throws {
    let handoff = Handoff<Prepared>()
    let reader = Thread { [self] in
      var batch: [Prepared] = []
      batch.reserveCapacity(Handoff<Prepared>.batchSize)
      let outcome = Result<Void, any Error> {
        try forEachEntry(from: from, through: through) { entry in
          batch.append(try prepare(entry))
          if batch.count == Handoff<Prepared>.batchSize {
            guard handoff.put(batch) else { throw Handoff<Prepared>.Stopped() }
            batch.removeAll(keepingCapacity: true)
          }
        }
      }
      if !batch.isEmpty { _ = handoff.put(batch) }
      handoff.finish(outcome)
    }
    reader.stackSize = 1 << 22
    reader.start()
    do {
      while let batch = try handoff.take() {
        for prepared in batch { try body(prepared) }
      }
    } catch {
      handoff.stop()
      throw error
    }
  }
}

/// Batches of prepared entries passed from the reading thread to the caller's, at most
/// ``depth`` waiting at once.
private final class Handoff<Prepared>: @unchecked Sendable {
  // @unchecked: every field is read and written under `condition`.
  static var batchSize: Int { 512 }
  static var depth: Int { 8 }

  struct Stopped: Error {}

  private let condition = NSCondition()
  /// Oldest first; never more than `depth`.
  private var batches: [[Prepared]] = []
  /// The reader's last word, once it has ended: its error, if the walk failed.
  private var outcome: Result<Void, any Error>?
  private var stopped = false

  /// Waits for room, then hands `batch` over; false once the caller stopped taking.
  func put(_ batch: [Prepared]) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while batches.count >= Self.depth, !stopped { condition.wait() }
    guard !stopped else { return false }
    batches.append(batch)
    condition.broadcast()
    return true
  }

  func finish(_ outcome: Result<Void, any Error>) {
    condition.lock()
    self.outcome = outcome
    condition.broadcast()
    condition.unlock()
  }

  /// The next batch; nil at the end; the reader's error after its last batch.
  func take() throws -> [Prepared]? {
    condition.lock()
    defer { condition.unlock() }
    while batches.isEmpty, outcome == nil { condition.wait() }
    if !batches.isEmpty {
      condition.broadcast()
      return batches.removeFirst()
    }
    switch outcome {
    case let .failure(error)? where !(error is Stopped): throw error
    default: return nil
    }
  }

  /// The caller stopped taking (its body threw): the reader stops at its next entry, and this
  /// waits until it has.
  func stop() {
    condition.lock()
    stopped = true
    condition.broadcast()
    while outcome == nil { condition.wait() }
    condition.unlock()
  }
}
