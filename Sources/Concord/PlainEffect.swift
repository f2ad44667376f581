import Synchronization

/// What the registry keeps of a running plain effect (a `.run` with no id, the commonest
/// effect), besides its task: a flag the effect raises as it ends.
///
/// The effect's task raises it with one atomic store, without the registry's lock, so an effect
/// that ends never waits for a store that is busy starting the next one; the registry forgets
/// ended effects the next time it takes its lock (see ``PlainTasks``).
@usableFromInline
class EffectTicket: @unchecked Sendable {
  @usableFromInline
  let ended = Atomic<Bool>(false)

  @inlinable
  init() {}

  /// Marks the effect as ended. The last thing its task does.
  @inlinable
  final func end() {
    ended.store(true, ordering: .releasing)
  }

  /// True once the effect has ended.
  @inlinable
  final var hasEnded: Bool { ended.load(ordering: .acquiring) }
}

/// A plain effect: its operation, where its actions go, and its ticket.
///
/// The effect's task captures this one object, which then serves as the closure's context: a
/// plain effect allocates nothing beyond its task and this. And since the registry holds it
/// until the store's thread forgets the ended effect, it is freed by the thread that made it, not
/// by the effect's, which keeps the allocator from passing memory between threads.
@usableFromInline
final class PlainEffect<Action: Sendable>: EffectTicket, @unchecked Sendable {
  // Only the effect's own task reads or clears these (see `run()`), so neither a data race nor
  // an overlapping access can happen, and the runtime's exclusivity check is skipped.
  @usableFromInline @exclusivity(unchecked)
  nonisolated(unsafe) var work: (@Sendable (Send<Action>) async throws -> Void)?
  @usableFromInline @exclusivity(unchecked)
  nonisolated(unsafe) var handler: Effect<Action>.ErrorHandler?
  @usableFromInline
  let runtime: EffectRuntime<Action>
  @usableFromInline
  let deliver: EffectRuntime<Action>.Delivery

  @inlinable
  init(
    _ work: @escaping @Sendable (Send<Action>) async throws -> Void,
    catch handler: Effect<Action>.ErrorHandler?,
    on runtime: EffectRuntime<Action>,
    deliver: @escaping EffectRuntime<Action>.Delivery
  ) {
    self.work = work
    self.handler = handler
    self.runtime = runtime
    self.deliver = deliver
  }

  /// The body of the effect's task. The operation and its handler are let go before the effect is
  /// marked ended, on the effect's task: what they capture is then never freed later, by the
  /// registry, under its lock (a deinit there that reached for the store would wait on it).
  @inlinable
  func run() async {
    if let work {
      await execute(work, catch: handler, on: runtime, deliver: deliver)
    }
    work = nil
    handler = nil
    end()
  }
}
