import CasePaths
import Concord
import Testing

@Suite struct StoreTests {
  struct Counter: Equatable, Sendable { var count = 0 }
  enum CounterAction: Equatable, Sendable { case increment, incrementTwiceViaEffects, add(Int) }

  static let counter = Reducer<Counter, CounterAction, Void> { state, action, _ in
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .incrementTwiceViaEffects:
      return .merge(.send(.increment), .run { send in await send(.increment) })
    case let .add(amount):
      state.count += amount
      return .none
    }
  }

  @Test func aThousandConcurrentSendersEndInTheRightState() async {
    let store = Store(initialState: Counter(), reducer: Self.counter)
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<1_000 {
        group.addTask {
          if index.isMultiple(of: 2) {
            await store.send(.increment)
          } else {
            await store.send(.incrementTwiceViaEffects).finish()
          }
        }
      }
    }
    #expect(await store.state.count == 500 + 500 * 2)
  }

  @Test func sendWaitsForTheEffectsItStarted() async {
    let store = Store(initialState: Counter(), reducer: Self.counter)
    let task = await store.send(.incrementTwiceViaEffects)
    await task.finish()
    #expect(await store.state.count == 2)
    #expect(store.runningEffectCount == 0)
  }

  /// Actions fed back synchronously are reduced right after the action, in order, and before any
  /// action an async effect sends — never in the middle of another reduction.
  @Test func reentrantSendsAreQueuedNotInterleaved() async {
    enum Action: Sendable { case start, step(String) }
    let store = Store(
      initialState: [String](),
      reducer: Reducer<[String], Action, Void> { log, action, _ in
        switch action {
        case .start:
          log.append("start:begin")
          let effect: Effect<Action> = .merge(
            .run { send in await send(.step("async")) },
            .send(.step("sync-1")),
            .send(.step("sync-2"))
          )
          log.append("start:end")
          return effect
        case let .step(name):
          log.append(name)
          return name == "sync-1" ? .send(.step("sync-1-child")) : .none
        }
      })
    await store.send(.start).finish()
    #expect(
      await store.state == ["start:begin", "start:end", "sync-1", "sync-2", "sync-1-child", "async"])
  }

  @Test func anImmediateEffectHasBegunWhenSendReturns() async {
    let began = Journal<String>()
    let reducer = Reducer<Int, Bool, Void> { _, _, _ in
      .run { _ in
        began.append("began")
        try await Task.sleep(for: .seconds(3600))
      }
    }
    let store = Store(initialState: 0, reducer: reducer, effectStart: .immediate)
    let task = await store.send(true)
    #expect(began.all == ["began"])
    #expect(store.runningEffectCount == 1)
    task.cancel()
    await task.finish()
    #expect(store.runningEffectCount == 0)
  }

  /// An immediate effect that never suspends ends before it is registered, with an id (kept by
  /// token) or without (kept as a plain effect); either way nothing is left behind.
  @Test(arguments: [false, true])
  func anEffectThatFinishesWhileStartingLeavesNothingBehind(withAnID: Bool) async {
    let store = Store(
      initialState: 0,
      reducer: Reducer<Int, Bool, Void> { _, _, _ in
        withAnID ? Effect.fireAndForget {}.cancellable(id: "quick") : .fireAndForget {}
      },
      effectStart: .immediate)
    for _ in 0..<100 { await store.send(true).finish() }
    #expect(store.runningEffectCount == 0)
  }

  @Test func observationSkipsDuplicatesAndStartsWithTheCurrentValue() async {
    let store = Store(initialState: Counter(), reducer: Self.counter)
    await store.send(.add(1))
    let counts = await store.observe({ $0.count > 2 }, bufferingPolicy: .unbounded)
    var iterator = counts.makeAsyncIterator()
    #expect(await iterator.next() == false)
    await store.send(.add(1))  // 2: still false, skipped
    await store.send(.add(1))  // 3: true
    await store.send(.add(1))  // 4: still true, skipped
    await store.send(.add(-4))  // 0: false
    #expect(await iterator.next() == true)
    #expect(await iterator.next() == false)
  }

  @Test func endingAnObservationUnregistersIt() async {
    let store = Store(initialState: Counter(), reducer: Self.counter)
    let watcher = Task {
      for await _ in await store.states() {}
    }
    #expect(await eventually { await store.observerCount == 1 })
    watcher.cancel()
    #expect(await eventually { await store.observerCount == 0 })
  }

  @Test func debugWritesTheActionAndAReadableDiff() async {
    let lines = Journal<String>()
    let store = Store(
      initialState: Counter(), reducer: Self.counter, debug: .diffs { lines.append($0) })
    await store.send(.add(3))
    let text = lines.all.joined(separator: "\n")
    #expect(text.contains("received action:"))
    #expect(text.contains("StoreTests.CounterAction.add(3)"))
    #expect(text.contains("- StoreTests.Counter(count: 0)"))
    #expect(text.contains("+ StoreTests.Counter(count: 3)"))
  }

  @Test func anEffectErrorWithoutAHandlerReachesDiagnostics() async {
    struct Boom: Error {}
    let messages = Journal<String>()
    let store = Store(
      initialState: 0,
      reducer: Reducer<Int, Bool, Void> { _, _, _ in .run { _ in throw Boom() } },
      environment: (),
      diagnostics: { messages.append($0) })
    await store.send(true).finish()
    #expect(messages.all.count == 1)
    #expect(messages.all.first?.contains("Boom") == true)
  }

  @Test func anEffectErrorGoesToItsHandler() async {
    struct Boom: Error {}
    enum Action: Sendable { case go, failed }
    let store = Store(
      initialState: [String](),
      reducer: Reducer<[String], Action, Void> { log, action, _ in
        switch action {
        case .go:
          return .run { _ in throw Boom() } catch: { _, send in await send(.failed) }
        case .failed:
          log.append("failed")
          return .none
        }
      })
    await store.send(.go).finish()
    #expect(await store.state == ["failed"])
  }
}

@Suite struct FeedbackLimitTests {
  @Test func aReducerThatFeedsBackForeverIsCutAndTheStoreGoesOn() async {
    // Each tick feeds back another: without a limit, `send` would never return.
    let store = Store(
      initialState: 0,
      reducer: Reducer<Int, Bool, Void> { count, _, _ in
        count += 1
        return .send(true)
      })
    let task = await store.send(true)
    #expect(task.refusal == nil)
    #expect(await store.state == 1 + Reduction<Bool>.maximumFeedback)
    await store.send(true)
    #expect(await store.state == 2 * (1 + Reduction<Bool>.maximumFeedback))
  }
}
