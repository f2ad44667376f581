import Synchronization
import Testing

@testable import Concord

/// Plain effects (a `.run` with no id) are kept apart from the others and forgotten lazily as
/// they end; these tests hold the registry to what a user sees: exact counts, and every running
/// effect cancelled by `cancelEffects`, whatever order effects end in.
@Suite struct PlainEffectTests {
  enum Action: Sendable { case listen, ping, pong }

  static func reducer(_ journal: Journal<String>) -> Reducer<Int, Action, Void> {
    Reducer { pongs, action, _ in
      switch action {
      case .listen:
        return .run { _ in
          do {
            try await Task.sleep(for: .seconds(3600))
          } catch {
            journal.append("listener cancelled")
          }
        }
      case .ping:
        return .run { send in await send(.pong) }
      case .pong:
        pongs += 1
        return .none
      }
    }
  }

  @Test func aLongEffectStartedFirstIsStillCountedAndCancelledAfterThousandsEndedBehindIt() async {
    let journal = Journal<String>()
    let store = Store(initialState: 0, reducer: Self.reducer(journal))
    let listener = await store.send(.listen)
    for _ in 0..<2_000 { await store.send(.ping).finish() }
    #expect(await store.state == 2_000)
    #expect(store.runningEffectCount == 1)

    store.cancelEffects()
    // Polled, not awaited: if the cancellation missed the listener, waiting would last an hour.
    #expect(await eventually { journal.all == ["listener cancelled"] })
    #expect(await eventually { store.runningEffectCount == 0 })
    listener.cancel()
  }

  @Test func effectsSentFasterThanTheyEndAreAllCountedAndAllEnd() async {
    let gate = Gate()
    let store = Store(
      initialState: 0,
      reducer: Reducer<Int, Action, Void> { pongs, action, _ in
        switch action {
        case .ping:
          return .run { send in
            await gate.pass()
            await send(.pong)
          }
        case .pong: pongs += 1
        case .listen: break
        }
        return .none
      })
    var tasks: [StoreTask] = []
    for _ in 0..<5_000 { tasks.append(await store.send(.ping)) }
    #expect(store.runningEffectCount == 5_000)
    await gate.open()
    for task in tasks { await task.finish() }
    #expect(await store.state == 5_000)
    #expect(store.runningEffectCount == 0)
  }

  /// An immediate effect runs on the sender's thread until it first suspends; asking its store
  /// how many effects run, there, must answer rather than wait on the registry it is being added to.
  @Test(.timeLimit(.minutes(1)))
  func anImmediateEffectCanAskForTheEffectCountBeforeItSuspends() async {
    let held = StoreHolder()
    let counts = Journal<Int>()
    let store = Store(
      initialState: 0,
      reducer: Reducer<Int, Bool, Void> { _, _, _ in
        .run { _ in
          if let store = held.store { counts.append(store.runningEffectCount) }
        }
      },
      effectStart: .immediate)
    held.store = store
    await store.send(true).finish()
    #expect(counts.all.count == 1)
    #expect(store.runningEffectCount == 0)
  }

  /// `cancelEffects` while an effect is being started (here, by the effect itself, before its first
  /// suspension, when it is not registered yet) still reaches it: it is cancelled as it registers.
  @Test(arguments: [false, true])
  func anEffectStartingWhileEffectsAreCancelledIsCancelledToo(withAnID: Bool) async {
    let held = StoreHolder()
    let ended = Journal<String>()
    let store = Store(
      initialState: 0,
      reducer: Reducer<Int, Bool, Void> { _, _, _ in
        let effect = Effect<Bool>.run { _ in
          held.store?.cancelEffects()
          do {
            try await Task.sleep(for: .seconds(3600))
          } catch {
            ended.append("cancelled")
          }
        }
        return withAnID ? effect.cancellable(id: "sleeper") : effect
      },
      effectStart: .immediate)
    held.store = store
    let task = await store.send(true)
    // Polled, not awaited: if the cancellation missed the effect, waiting would last an hour.
    #expect(await eventually { ended.all == ["cancelled"] })
    #expect(await eventually { store.runningEffectCount == 0 })
    task.cancel()
  }

  /// What an effect's operation captures is let go on the effect's task. If the registry let it
  /// go as it forgot the ended effect, under its lock, a deinit that asked the store anything
  /// would wait on that lock.
  @Test(.timeLimit(.minutes(1)))
  func whatAnEffectCapturesIsFreedOutsideTheRegistry() async {
    final class AsksTheStoreWhenFreed: Sendable {
      let held: StoreHolder
      let counts: Journal<Int>
      init(_ held: StoreHolder, _ counts: Journal<Int>) {
        self.held = held
        self.counts = counts
      }
      deinit {
        if let store = held.store { counts.append(store.runningEffectCount) }
      }
    }
    let held = StoreHolder()
    let counts = Journal<Int>()
    let store = Store(
      initialState: 0,
      reducer: Reducer<Int, Bool, Void> { _, _, _ in
        let asker = AsksTheStoreWhenFreed(held, counts)
        return .run { _ in _ = asker }
      })
    held.store = store
    for _ in 0..<3 { await store.send(true).finish() }
    held.store = nil
    #expect(counts.all.count == 3)
  }

  /// The list of plain tasks drops ended ones as it goes, and stays bounded even when one effect
  /// that never ends sits at its front.
  @Test func theListOfPlainTasksStaysBoundedBehindAnEffectThatNeverEnds() async {
    let never = Task<Void, Never> { try? await Task.sleep(for: .seconds(3600)) }
    var plain = PlainTasks()
    plain.dropEnded()
    plain.append(never, ticket: EffectTicket())
    var longest = 0
    for _ in 0..<10_000 {
      plain.dropEnded()
      let ticket = EffectTicket()
      plain.append(Task {}, ticket: ticket)
      ticket.end()
      longest = max(longest, plain.entries.count)
    }
    #expect(longest <= 128)
    #expect(plain.liveTasks.count == 1)
    never.cancel()
  }
}

/// A store that effects made before it can reach, as a user's effect might through a dependency.
final class StoreHolder: Sendable {
  private let held = Mutex<Store<Int, Bool>?>(nil)

  var store: Store<Int, Bool>? {
    get { held.withLock { $0 } }
    set { held.withLock { $0 = newValue } }
  }
}

/// Holds every effect that reaches it until it is opened.
actor Gate {
  private var isOpen = false
  private var waiting: [CheckedContinuation<Void, Never>] = []

  func pass() async {
    if isOpen { return }
    await withCheckedContinuation { waiting.append($0) }
  }

  func open() {
    isOpen = true
    waiting.forEach { $0.resume() }
    waiting = []
  }
}
