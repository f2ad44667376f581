import Dispatch
import Foundation
import Synchronization

/// Seals a batch's entries on a second thread while the caller inserts the ones already sealed.
///
/// Sealing an entry (XChaCha20-Poly1305 and BLAKE2b: about 1.4 µs on a small server) and
/// inserting it into SQLite (about 4 µs) do not depend on each other once the entry's chain
/// position is known, so a batch costs about what its inserts cost. The sealing runs ahead on
/// the assumption that no record of the batch is a duplicate; when one is, the caller calls
/// ``finish()`` and seals the rest itself from the position actually reached.
///
/// ```swift
/// let pipeline = SealingPipeline(records: batch, random: random, sealer: sealer)
/// defer { pipeline.finish() }
/// for index in batch.indices { insert(pipeline.row(at: index)) }
/// ```
final class SealingPipeline: @unchecked Sendable {
  // @unchecked: a row is written once by the sealing thread before `sealed` is raised past it
  // (release), and read by the caller only after it saw `sealed` past it (acquire).

  /// Below this many records a second thread costs more than it saves.
  static let minimumBatch = 16

  private let rows: UnsafeMutablePointer<EntrySealer.SealedRow>
  private let sealed = Atomic<Int>(0)
  private let stopRequested = Atomic<Bool>(false)
  private let stopped = DispatchSemaphore(value: 0)

  /// Starts sealing `records` in order from `sealer`'s position; `random` holds
  /// ``EntrySealer/randomBytesPerEntry`` bytes for each record.
  init(records: [LogRecord], random: [UInt8], sealer: EntrySealer) {
    precondition(random.count == records.count * EntrySealer.randomBytesPerEntry)
    rows = .allocate(capacity: records.count)
    DispatchQueue.global(qos: .userInitiated).async { [self] in
      var sealer = sealer
      random.withUnsafeBytes { random in
        for index in records.indices where !stopRequested.load(ordering: .relaxed) {
          let start = index * EntrySealer.randomBytesPerEntry
          let bytes = UnsafeRawBufferPointer(rebasing: random[start..<start + EntrySealer.randomBytesPerEntry])
          (rows + index).initialize(to: sealer.seal(records[index], random: bytes))
          sealed.store(index + 1, ordering: .releasing)
        }
      }
      stopped.signal()
    }
  }

  /// The sealed row for record `index`, waiting for the sealing thread to get there.
  func row(at index: Int) -> EntrySealer.SealedRow {
    var spins = 0
    while sealed.load(ordering: .acquiring) <= index {
      // The sealing thread is normally ahead; yield the core when it is not.
      spins += 1
      if spins > 100 { sched_yield() }
    }
    return rows[index]
  }

  /// Stops the sealing thread, waits for it, and frees the rows. Call exactly once.
  func finish() {
    stopRequested.store(true, ordering: .relaxed)
    stopped.wait()
    rows.deinitialize(count: sealed.load(ordering: .acquiring))
    rows.deallocate()
  }
}
