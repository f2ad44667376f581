import Clocks
import Concord
import Testing

@Suite struct CancellationTests {
  enum Action: Equatable, Sendable { case start, cancel, finished, startAgainCancellingInFlight }

  /// The effect finishes as fast as it can; the test cancels it right away. Either the effect's
  /// action was reduced before the cancellation, or it is never reduced at all.
  @Test func cancellationRacingWithCompletionNeverDeliversLate() async {
    let reducer = Reducer<[String], Action, Void> { log, action, _ in
      switch action {
      case .start:
        log.append("start")
        return .run { send in await send(.finished) }.cancellable(id: "race")
      case .cancel:
        log.append("cancel")
        return .cancel(id: "race")
      case .finished:
        log.append("finished")
        return .none
      case .startAgainCancellingInFlight:
        return .none
      }
    }
    for _ in 0..<300 {
      let store = Store(initialState: [String](), reducer: reducer)
      let started = await store.send(.start)
      await store.send(.cancel)
      await started.finish()
      let log = await store.state
      #expect(log == ["start", "cancel"] || log == ["start", "finished", "cancel"])
      #expect(await eventually { store.runningEffectCount == 0 })
    }
  }

  @Test func cancelInFlightKeepsOnlyTheNewestRequest() async {
    let clock = TestClock()
    enum Search: Equatable, Sendable { case query(String), results(String) }
    let store = clockedStore(
      initialState: [String](),
      reducer: Reducer<[String], Search, Void> { log, action, _ in
        switch action {
        case let .query(text):
          return .run { send in
            try await clock.sleep(for: .seconds(1))
            await send(.results(text))
          }
          .cancellable(id: "search", cancelInFlight: true)
        case let .results(text):
          log.append(text)
          return .none
        }
      })
    await store.send(.query("c"))
    await store.send(.query("co"))
    let last = await store.send(.query("con"))
    await clock.advance(by: .seconds(1))
    await last.finish()
    #expect(await store.state == ["con"])
    #expect(store.runningEffectCount == 0)
  }

  @Test func cancellingTheStoreTaskCancelsItsEffects() async {
    let clock = WatchedClock()
    let ticks = Journal<Int>()
    let store = clockedStore(
      initialState: 0,
      reducer: Reducer<Int, Int, Void> { state, action, _ in
        state = action
        return .run { _ in
          for tick in 1... {
            try await clock.sleep(for: .seconds(1))
            ticks.append(tick)
          }
        }
      })
    let task = await store.send(1)
    for tick in 1...2 {
      await clock.advance(by: .seconds(1), whenSleeping: 1)
      #expect(await eventually { ticks.all.count == tick })
    }
    task.cancel()
    await task.finish()
    #expect(task.isCancelled)
    #expect(ticks.all == [1, 2])
    #expect(store.runningEffectCount == 0)
  }

  /// Waiting for an action's effects does not own them, as with `Task.value`: cancelling the
  /// waiter leaves the effects running (and the waiter waiting) until someone cancels them; the
  /// documented handler cancels them with the waiter.
  @Test(.timeLimit(.minutes(1)))
  func cancellingAWaiterLeavesTheEffectsRunningUnlessItCancelsThem() async {
    let ended = Journal<String>()
    let store = Store(
      initialState: 0,
      reducer: Reducer<Int, Int, Void> { _, action, _ in
        .run { _ in
          do {
            try await Task.sleep(for: .seconds(3600))
          } catch {
            ended.append("effect \(action) cancelled")
          }
        }
      })

    let plain = await store.send(1)
    let waiter = Task {
      await plain.finish()
      ended.append("waiter returned")
    }
    waiter.cancel()
    try? await Task.sleep(for: .milliseconds(50))
    #expect(!plain.isCancelled)
    #expect(ended.all.isEmpty)
    #expect(store.runningEffectCount == 1)

    let owned = await store.send(2)
    let owningWaiter = Task {
      await withTaskCancellationHandler { await owned.finish() } onCancel: { owned.cancel() }
    }
    owningWaiter.cancel()
    await owningWaiter.value
    #expect(owned.isCancelled)
    #expect(ended.all == ["effect 2 cancelled"])

    plain.cancel()
    await waiter.value
    #expect(Set(ended.all) == ["effect 1 cancelled", "effect 2 cancelled", "waiter returned"])
    #expect(store.runningEffectCount == 0)
  }

  @Test func cancellingOneIDLeavesOthersRunning() async {
    let clock = TestClock()
    let store = clockedStore(
      initialState: [String](),
      reducer: Reducer<[String], String, Void> { log, action, _ in
        switch action {
        case "a", "b":
          return .run { send in
            try await clock.sleep(for: .seconds(1))
            await send("\(action) done")
          }
          .cancellable(id: action)
        case "cancel a":
          return .cancel(id: "a")
        default:
          log.append(action)
          return .none
        }
      })
    await store.send("a")
    let b = await store.send("b")
    await store.send("cancel a")
    await clock.advance(by: .seconds(1))
    await b.finish()
    #expect(await store.state == ["b done"])
  }

  @Test func concatenatedEffectsRunInOrderAndStopWhenCancelled() async {
    let clock = WatchedClock()
    let store = clockedStore(
      initialState: [String](),
      reducer: Reducer<[String], String, Void> { log, action, _ in
        switch action {
        case "go":
          return .concatenate(
            (1...3).map { step in
              .run { send in
                try await clock.sleep(for: .seconds(1))
                await send("step \(step)")
              }
            }
          )
          .cancellable(id: "steps")
        case "stop":
          return .cancel(id: "steps")
        default:
          log.append(action)
          return .none
        }
      })
    let go = await store.send("go")
    await clock.advance(by: .seconds(1), whenSleeping: 1)
    #expect(await eventually { await store.state == ["step 1"] })
    await clock.advance(by: .seconds(1), whenSleeping: 1)
    #expect(await eventually { await store.state == ["step 1", "step 2"] })
    await store.send("stop")
    await clock.advance(by: .seconds(5), whenSleeping: 0)
    await go.finish()
    #expect(await store.state == ["step 1", "step 2"])
    #expect(store.runningEffectCount == 0)
  }

  @Test func releasingTheStoreCancelsItsEffects() async {
    let clock = TestClock()
    let started = Journal<String>()
    var store: Store<Int, Int>? = clockedStore(
      initialState: 0,
      reducer: Reducer<Int, Int, Void> { _, _, _ in
        .run { _ in
          started.append("started")
          try await clock.sleep(for: .seconds(3600))
          started.append("outlived the store")
        }
      })
    let task = await store!.send(1)
    #expect(await eventually { started.all == ["started"] })
    store = nil
    await task.finish()
    #expect(task.isCancelled)
    #expect(started.all == ["started"])
  }
}
