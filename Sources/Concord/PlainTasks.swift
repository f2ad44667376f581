import DequeModule

/// The tasks of running plain effects, oldest first, guarded by the runtime's lock.
///
/// The registry needs these tasks only to cancel them all and to count them, so they are kept in
/// the order they started rather than by a key in a hash table: a store that sends faster than
/// its effects finish has tens of thousands in flight, and a table that large costs a cache miss
/// and a hash for every insertion and every removal. An effect does not remove itself as it ends
/// (see ``EffectTicket``); ended effects are dropped from the front as new ones are added, which
/// keeps up as long as effects end in about the order they started. When they do not (one effect
/// that runs for a long time at the front), the whole list is swept once it has doubled since the
/// last look (see ``sweepIfStuck()``), which bounds it.
@usableFromInline
struct PlainTasks {
  @usableFromInline
  struct Entry {
    @usableFromInline
    let task: Task<Void, Never>
    @usableFromInline
    let ticket: EffectTicket

    @inlinable
    init(task: Task<Void, Never>, ticket: EffectTicket) {
      self.task = task
      self.ticket = ticket
    }
  }

  @usableFromInline
  var entries: Deque<Entry> = []
  /// The length at which the whole list is swept next.
  @usableFromInline
  var sweepAt = 64
  @usableFromInline
  var skippedLastSweep = false

  @usableFromInline
  init() {}

  /// Drops the ended effects at the front, and sweeps the whole list when it has grown.
  @inlinable
  mutating func dropEnded() {
    while let first = entries.first, first.ticket.hasEnded {
      entries.removeFirst()
    }
    if entries.count >= sweepAt { sweepIfStuck() }
  }

  /// Adds a started effect's task.
  @inlinable
  mutating func append(_ task: Task<Void, Never>, ticket: EffectTicket) {
    entries.append(Entry(task: task, ticket: ticket))
  }

  /// Sweeps the list when the effect at its front seems stuck: when the effect in the middle has
  /// ended. Otherwise effects are merely in flight, faster than they end, and a sweep would touch
  /// every one of them to drop none; but it never skips twice in a row, so the list stays within
  /// about four times what is alive, whatever order effects end in.
  @usableFromInline
  mutating func sweepIfStuck() {
    if skippedLastSweep || entries[entries.count / 2].ticket.hasEnded {
      entries.removeAll { $0.ticket.hasEnded }
      skippedLastSweep = false
    } else {
      skippedLastSweep = true
    }
    sweepAt = max(64, entries.count * 2)
  }

  /// How many of these effects have not ended.
  var liveCount: Int {
    entries.count { !$0.ticket.hasEnded }
  }

  /// The tasks of the effects that have not ended.
  var liveTasks: [Task<Void, Never>] {
    entries.filter { !$0.ticket.hasEnded }.map(\.task)
  }
}
