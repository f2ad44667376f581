import Clocks
import Concord
import Testing

/// Each policy of EffectQueue, driven by a test clock. Every job takes one second of clock time
/// and then reports `done(n)`.
@Suite struct EffectQueueTests {
  enum Job: Equatable, Sendable {
    case start(Int)
    case done(Int)
    case cancel(Int)
  }

  static func store(
    _ queue: EffectQueue, clock: WatchedClock, work: Duration = .seconds(1)
  ) -> Store<[Int], Job> {
    clockedStore(
      initialState: [],
      reducer: Reducer<[Int], Job, Void> { finished, action, _ in
        switch action {
        case let .start(n):
          return .run { send in
            if work > .zero { try await clock.sleep(for: work) }
            await send(.done(n))
          }
          .queued(in: queue)
          .cancellable(id: n)
        case let .done(n):
          finished.append(n)
          return .none
        case let .cancel(n):
          return .cancel(id: n)
        }
      },
      environment: (),
      clock: clock
    )
  }

  static func start(_ jobs: ClosedRange<Int>, in store: Store<[Int], Job>) async {
    for n in jobs { await store.send(.start(n)) }
  }

  @Test func newestOneIsSwitchLatest() async {
    let clock = WatchedClock()
    let store = Self.store(EffectQueue("q", .newest(1)), clock: clock)
    await Self.start(1...3, in: store)
    await clock.advance(by: .seconds(1))
    #expect(await eventually { await store.state == [3] })
    #expect(await eventually { store.runningEffectCount == 0 })
  }

  @Test func newestTwoKeepsTheTwoLatest() async {
    let clock = WatchedClock()
    let store = Self.store(EffectQueue("q", .newest(2)), clock: clock)
    await Self.start(1...3, in: store)
    await clock.advance(by: .seconds(1))
    #expect(await eventually { await store.state.sorted() == [2, 3] })
  }

  @Test func oldestDiscardingNewDropsNewcomersUntilASlotFrees() async {
    let clock = WatchedClock()
    let store = Self.store(EffectQueue("q", .oldestDiscardingNew(1)), clock: clock)
    await Self.start(1...3, in: store)
    #expect(store.runningEffectCount == 1)
    await clock.advance(by: .seconds(1))
    #expect(await eventually { await store.state == [1] })
    #expect(await eventually { store.runningEffectCount == 0 })
    await Self.start(4...4, in: store)
    await clock.advance(by: .seconds(1))
    #expect(await eventually { await store.state == [1, 4] })
  }

  @Test func oldestSuspendingNewOneIsConcat() async {
    let clock = WatchedClock()
    let store = Self.store(EffectQueue("q", .oldestSuspendingNew(1)), clock: clock)
    await Self.start(1...3, in: store)
    #expect(store.runningEffectCount == 3)
    for expected in [[1], [1, 2], [1, 2, 3]] {
      // The next job in line sleeps only once the one before it has finished.
      await clock.advance(by: .seconds(1), whenSleeping: 1)
      #expect(await eventually { await store.state == expected })
    }
    #expect(await eventually { store.runningEffectCount == 0 })
  }

  @Test func oldestSuspendingNewTwoRunsTwoAtATime() async {
    let clock = WatchedClock()
    let store = Self.store(EffectQueue("q", .oldestSuspendingNew(2)), clock: clock)
    await Self.start(1...3, in: store)
    await clock.advance(by: .seconds(1), whenSleeping: 2)
    #expect(await eventually { await store.state.sorted() == [1, 2] })
    await clock.advance(by: .seconds(1), whenSleeping: 1)
    #expect(await eventually { await store.state.sorted() == [1, 2, 3] })
  }

  @Test func aWaitingEffectCanBeCancelledAndTheLineMovesOn() async {
    let clock = WatchedClock()
    let store = Self.store(EffectQueue("q", .oldestSuspendingNew(1)), clock: clock)
    await Self.start(1...3, in: store)
    await store.send(.cancel(2))
    await clock.advance(by: .seconds(1), whenSleeping: 1)
    #expect(await eventually { await store.state == [1] })
    await clock.advance(by: .seconds(1), whenSleeping: 1)
    #expect(await eventually { await store.state == [1, 3] })
    #expect(await eventually { store.runningEffectCount == 0 })
  }

  /// Debounce: newest(1) with a start delay. Only a job that sees no newer job during its delay
  /// runs.
  @Test func newestWithADelayDebounces() async {
    let clock = WatchedClock()
    let debounce = EffectQueue("save", .newest(1), delay: .milliseconds(500))
    let store = Self.store(debounce, clock: clock, work: .zero)
    await Self.start(1...1, in: store)
    await clock.advance(by: .milliseconds(300))
    await Self.start(2...2, in: store)
    await clock.advance(by: .milliseconds(300))
    #expect(await store.state == [])
    await Self.start(3...3, in: store)
    await clock.advance(by: .milliseconds(499))
    #expect(await store.state == [])
    await clock.advance(by: .milliseconds(1))
    #expect(await eventually { await store.state == [3] })
  }

  /// Throttle: oldestDiscardingNew(1) with a delay. The first request in a window runs at the
  /// window's end; the others in the window are dropped.
  @Test func oldestDiscardingNewWithADelayThrottles() async {
    let clock = WatchedClock()
    let throttle = EffectQueue("refresh", .oldestDiscardingNew(1), delay: .seconds(1))
    let store = Self.store(throttle, clock: clock, work: .zero)
    await Self.start(1...3, in: store)
    await clock.advance(by: .seconds(1))
    #expect(await eventually { await store.state == [1] })
    #expect(await eventually { store.runningEffectCount == 0 })
    await Self.start(4...5, in: store)
    await clock.advance(by: .seconds(1))
    #expect(await eventually { await store.state == [1, 4] })
  }

  /// `.cancel(id:)` reaches an effect that still waits in its queue's delay.
  @Test func cancellingAnIDInsideAQueueStopsItDuringTheDelay() async {
    let clock = WatchedClock()
    let debounce = EffectQueue("save", .newest(1), delay: .milliseconds(300))
    let store = clockedStore(
      initialState: [String](),
      reducer: Reducer<[String], String, Void> { log, action, _ in
        switch action {
        case "save":
          return .run { send in await send("saved") }.cancellable(id: "save").queued(in: debounce)
        case "discard":
          return .cancel(id: "save")
        default:
          log.append(action)
          return .none
        }
      },
      environment: (), clock: clock)
    let save = await store.send("save")
    await store.send("discard")
    await clock.advance(by: .seconds(1))
    await save.finish()
    #expect(save.isCancelled)
    #expect(await store.state == [])
  }

  /// An effect that cancels its own id in flight still runs when its queue lets it start.
  @Test func cancelInFlightInsideAQueueDoesNotCancelItself() async {
    let clock = WatchedClock()
    let debounce = EffectQueue("save", .newest(1), delay: .milliseconds(300))
    let store = clockedStore(
      initialState: [String](),
      reducer: Reducer<[String], String, Void> { log, action, _ in
        if action == "save" {
          return .run { send in await send("saved") }
            .cancellable(id: "save", cancelInFlight: true)
            .queued(in: debounce)
        }
        log.append(action)
        return .none
      },
      environment: (), clock: clock)
    await store.send("save")
    let last = await store.send("save")
    await clock.advance(by: .milliseconds(300))
    await last.finish()
    #expect(await store.state == ["saved"])
  }

  /// Cancelling everything leaves the queue usable: waiters end, new effects run and obey ids.
  @Test func cancellingAllEffectsReleasesWaitersAndKeepsTheQueueWorking() async {
    let clock = WatchedClock()
    let store = Self.store(EffectQueue("q", .oldestSuspendingNew(1)), clock: clock)
    await store.send(.start(1))
    let waiting = await store.send(.start(2))
    store.cancelEffects()
    await waiting.finish()
    #expect(await eventually { store.runningEffectCount == 0 })

    await Self.start(3...4, in: store)
    await store.send(.cancel(4))
    await clock.advance(by: .seconds(1))
    #expect(await eventually { await store.state == [3] })
    await clock.advance(by: .seconds(1))
    #expect(await eventually { store.runningEffectCount == 0 })
    #expect(await store.state == [3])
  }

  @Test func queuesWithDifferentIDsDoNotShareSlots() async {
    let clock = WatchedClock()
    let store = clockedStore(
      initialState: [String](),
      reducer: Reducer<[String], String, Void> { log, action, _ in
        if action.hasSuffix("done") {
          log.append(action)
          return .none
        }
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          await send("\(action) done")
        }
        .queued(in: EffectQueue(action, .oldestDiscardingNew(1)))
      },
      environment: (),
      clock: clock)
    await store.send("a")
    await store.send("b")
    await clock.advance(by: .seconds(1))
    #expect(await eventually { await store.state.sorted() == ["a done", "b done"] })
  }
}
