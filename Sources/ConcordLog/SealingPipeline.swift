import Dispatch
import Foundation
import Synchronization

/// Seals a batch's entries on a second thread while the caller inserts the ones already sealed.
///
/// Sealing an entry (XChaCha20-Poly1305 and BLAKE2b: about 1.4 µs of cryptography on a small
/// server, 2 µs in all) and inserting it into SQLite (about 4 µs through GRDB) do not depend on
/// each other once the entry's chain position is known, so a batch costs about what its inserts
/// cost. Rows are sealed into a ``SealedBatch`` the caller allocated: the thread that seals
/// allocates nothing the caller frees. The sealing runs ahead on
/// the assumption that no record of the batch is a duplicate; when one is, the caller calls
/// ``finish()`` and seals the rest itself from the position actually reached.
///
/// The second thread takes tens of microseconds to wake on a small virtual machine (about as
/// long as sealing a dozen entries), and may be busy with another log's batch, so the caller
/// does not wait for it: it seals the rows it needs itself until the thread asks for the work,
/// and hands the sealer over between two rows. A batch the caller finishes alone never waits for
/// the thread at all. (Keeping the thread awake between batches, spinning, made no measurable
/// difference to the log's own benchmark and cost the daemon about 8% of its throughput with 16
/// clients: the daemon's other threads need that core.)
///
/// ```swift
/// let pipeline = SealingPipeline(records: records, batch: batch, sealer: sealer)
/// defer { pipeline.finish() }
/// for index in records.indices { pipeline.waitForRow(index); insert(index) }
/// ```
final class SealingPipeline: @unchecked Sendable {
  // @unchecked: a row of the batch is written once, by whichever thread seals it, before
  // `sealed` is raised past it (release), and read by the caller only after it saw `sealed`
  // past it (acquire).
  // `sealer` belongs to the caller until it raises `turn` to `.helper` (release), and to the
  // sealing thread after it saw that (acquire).

  /// Below this many records a second thread costs more than it saves.
  static let minimumBatch = 16

  /// Whose turn it is to seal.
  private enum Turn {
    /// The caller seals the rows it needs.
    static let caller = 0
    /// The sealing thread is up and waits for the sealer.
    static let helperAsked = 1
    /// The sealing thread seals; the caller only reads.
    static let helper = 2
    /// The caller is done: the sealing thread must not start, or stops.
    static let finished = 3
  }

  private let records: [LogRecord]
  private let batch: SealedBatch
  private var sealer: EntrySealer
  private let sealed = Atomic<Int>(0)
  private let turn = Atomic<Int>(Turn.caller)
  private let stopped = DispatchSemaphore(value: 0)

  /// Schedules the sealing thread to seal `records` into `batch`, in order from `sealer`'s
  /// position; the caller seals the first rows itself until the thread takes over.
  init(records: [LogRecord], batch: SealedBatch, sealer: EntrySealer) {
    self.records = records
    self.batch = batch
    self.sealer = sealer
    Self.sealingQueue.async { [self] in sealOnHelperThread() }
  }

  /// Returns once record `index` is sealed into the batch: sealed here while the sealing thread
  /// is not up yet, otherwise waited for. Ask for the rows in order.
  func waitForRow(_ index: Int) {
    if sealed.load(ordering: .acquiring) <= index {
      switch turn.load(ordering: .acquiring) {
      case Turn.caller:
        seal(index)
      case Turn.helperAsked:
        turn.store(Turn.helper, ordering: .releasing)
      default:
        break
      }
    }
    var spins = 0
    while sealed.load(ordering: .acquiring) <= index {
      // The sealing thread is normally ahead; yield the core when it is not.
      spins += 1
      if spins > 100 { sched_yield() }
    }
  }

  /// Stops the sealing thread if it took over, and waits until it let go of the batch. Call
  /// exactly once.
  func finish() {
    let before = turn.exchange(Turn.finished, ordering: .acquiringAndReleasing)
    // Only a thread that took over writes into the batch; wait until it stopped.
    if before == Turn.helper { stopped.wait() }
  }

  /// One sealing thread for the process, taking batches in turn: a writer whose batch waits
  /// behind another log's seals its own rows meanwhile.
  private static let sealingQueue = DispatchQueue(label: "concord.log.sealing", qos: .userInitiated)

  /// The sealing thread's part: ask for the sealer, then seal from wherever the caller got to.
  private func sealOnHelperThread() {
    guard
      turn.compareExchange(expected: Turn.caller, desired: Turn.helperAsked, ordering: .acquiringAndReleasing)
        .exchanged
    else { return }  // The caller finished alone.
    // The caller hands the sealer over between two rows, or finishes without it.
    var spins = 0
    while true {
      let current = turn.load(ordering: .acquiring)
      if current == Turn.helper { break }
      if current == Turn.finished { return }
      spins += 1
      if spins > 100 { sched_yield() }
    }
    var index = sealed.load(ordering: .acquiring)
    while index < records.count, turn.load(ordering: .relaxed) != Turn.finished {
      seal(index)
      index += 1
    }
    stopped.signal()
  }

  /// Seals record `index`, which must be the next one, and publishes it.
  private func seal(_ index: Int) {
    batch.seal(index, records[index], with: &sealer)
    sealed.store(index + 1, ordering: .releasing)
  }
}
