import CasePaths
import Clocks
import Concord
import IdentifiedCollections
import Testing

/// Combining, pulling back, optional children, enum children and collections of children.
@Suite struct CompositionTests {
  // A child with a long-running timer, used under ifLet, ifCaseLet and forEach.
  struct Timer: Equatable, Identifiable, Sendable {
    var id: Int
    var ticks = 0
  }
  @CasePathable enum TimerAction: Equatable, Sendable { case start, tick, rename(Int) }
  struct TimerEnvironment: Sendable { var clock: WatchedClock }

  static let timer = Reducer<Timer, TimerAction, TimerEnvironment> { state, action, environment in
    switch action {
    case .start:
      return .run { send in
        while true {
          try await environment.clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
      .cancellable(id: "timer", cancelInFlight: true)
    case .tick:
      state.ticks += 1
      return .none
    case let .rename(id):
      guard id > 0 else { return .refuse("Ids are positive") }
      state.id = id
      return .none
    }
  }

  // MARK: combine and pullback

  @Test func combineRunsReducersInOrder() async {
    let store = Store(
      initialState: [String](),
      reducer: .combine(
        Reducer<[String], String, Void> { log, action, _ in
          log.append("first \(action)")
          return .none
        },
        Reducer { log, action, _ in
          log.append("second \(action)")
          return .none
        }
      ))
    await store.send("x")
    #expect(await store.state == ["first x", "second x"])
  }

  struct Parent: Equatable, Sendable { var child = 0, other = 0 }
  @CasePathable enum ParentAction: Sendable { case child(Int), other }

  @Test func pullbackIgnoresOtherActionsAndTransformsTheEnvironment() async {
    let child = Reducer<Int, Int, Int> { state, action, multiplier in
      state += action * multiplier
      return .none
    }
    let parent = child.pullback(state: \Parent.child, action: \ParentAction.AllCasePaths.child) { (env: String) in env.count }
    let store = Store(initialState: Parent(), reducer: parent, environment: "xyz")
    await store.send(.child(2))
    await store.send(.other)
    #expect(await store.state == Parent(child: 6, other: 0))
  }

  // MARK: ifLet

  struct Screen: Equatable, Sendable { var timer: Timer? }
  @CasePathable enum ScreenAction: Equatable, Sendable { case open, close, timer(TimerAction) }

  static let screen = Reducer<Screen, ScreenAction, TimerEnvironment> { state, action, _ in
    switch action {
    case .open: state.timer = Timer(id: 1)
    case .close: state.timer = nil
    case .timer: break
    }
    return .none
  }
  .ifLet(state: \.timer, action: \.timer, environment: { $0 }, then: timer)

  @Test func ifLetRunsTheChildAndCancelsItsEffectsWhenItGoesAway() async {
    let clock = WatchedClock()
    let store = clockedStore(
      initialState: Screen(), reducer: Self.screen, environment: TimerEnvironment(clock: clock))
    await store.send(.open)
    let timer = await store.send(.timer(.start))
    for tick in 1...2 {
      await clock.advance(by: .seconds(1), whenSleeping: 1)
      #expect(await eventually { await store.state.timer?.ticks == tick })
    }
    await store.send(.close)
    await timer.finish()
    #expect(timer.isCancelled)
    #expect(store.runningEffectCount == 0)
  }

  @Test func ifLetRefusesAChildActionWhenTheChildIsGone() async {
    let store = clockedStore(
      initialState: Screen(), reducer: Self.screen,
      environment: TimerEnvironment(clock: WatchedClock()))
    let task = await store.send(.timer(.tick))
    #expect(task.refusal == "There is no Timer to receive tick any more")
  }

  @Test func ifLetPassesTheChildsRefusalThrough() async {
    let store = clockedStore(
      initialState: Screen(timer: Timer(id: 1)), reducer: Self.screen,
      environment: TimerEnvironment(clock: WatchedClock()))
    let task = await store.send(.timer(.rename(-1)))
    #expect(task.refusal == "Ids are positive")
    #expect(await store.state.timer == Timer(id: 1))
  }

  /// Two instances of one feature, side by side: closing one pane's timer leaves the other's
  /// running, although both use the same key path and the same effect id inside.
  struct Panes: Equatable, Sendable {
    var left = Screen()
    var right = Screen()
  }
  @CasePathable enum PanesAction: Equatable, Sendable {
    case left(ScreenAction)
    case right(ScreenAction)
  }

  @Test func siblingInstancesOfAFeatureHaveTheirOwnEffectIDs() async {
    let clock = WatchedClock()
    let panes = Reducer<Panes, PanesAction, TimerEnvironment>.combine(
      Self.screen.pullback(state: \.left, action: \.left, environment: { $0 }),
      Self.screen.pullback(state: \.right, action: \.right, environment: { $0 })
    )
    let store = clockedStore(
      initialState: Panes(), reducer: panes, environment: TimerEnvironment(clock: clock))
    await store.send(.left(.open))
    await store.send(.right(.open))
    let left = await store.send(.left(.timer(.start)))
    let right = await store.send(.right(.timer(.start)))
    await store.send(.left(.close))
    await left.finish()
    #expect(!right.isCancelled)
    await clock.advance(by: .seconds(1), whenSleeping: 1)
    #expect(await eventually { await store.state.right.timer?.ticks == 1 })
    store.cancelEffects()
  }

  // MARK: ifCaseLet

  @CasePathable enum Mode: Equatable, Sendable { case idle, timing(Timer) }
  @CasePathable enum ModeAction: Equatable, Sendable { case begin, end, timer(TimerAction) }

  static let mode = Reducer<Mode, ModeAction, TimerEnvironment> { state, action, _ in
    switch action {
    case .begin: state = .timing(Timer(id: 7))
    case .end: state = .idle
    case .timer: break
    }
    return .none
  }
  .ifCaseLet(state: \.timing, action: \.timer, environment: { $0 }, then: timer)

  @Test func ifCaseLetRunsTheChildInItsCaseAndCancelsOnLeavingIt() async {
    let clock = WatchedClock()
    let store = clockedStore(initialState: Mode.idle, reducer: Self.mode, environment: TimerEnvironment(clock: clock))
    let early = await store.send(.timer(.tick))
    #expect(early.refusal == "tick needs Timer, which is not the current state")

    await store.send(.begin)
    let timer = await store.send(.timer(.start))
    await clock.advance(by: .seconds(1), whenSleeping: 1)
    #expect(await eventually { await store.state == .timing(Timer(id: 7, ticks: 1)) })
    await store.send(.end)
    await timer.finish()
    #expect(timer.isCancelled)
    #expect(await store.state == .idle)
  }

  // MARK: forEach

  struct Timers: Equatable, Sendable { var timers: IdentifiedArrayOf<Timer> = [] }
  @CasePathable enum TimersAction: Equatable, Sendable {
    case add(Int)
    case remove(Int)
    case timers(IdentifiedAction<Int, TimerAction>)
  }

  static let timers = Reducer<Timers, TimersAction, TimerEnvironment> { state, action, _ in
    switch action {
    case let .add(id): state.timers.append(Timer(id: id))
    case let .remove(id): state.timers.remove(id: id)
    case .timers: break
    }
    return .none
  }
  .forEach(state: \.timers, action: \.timers, environment: { $0 }, element: timer)

  @Test func forEachRoutesByIDAndGivesEachElementItsOwnEffectIDs() async {
    let clock = WatchedClock()
    let store = clockedStore(initialState: Timers(), reducer: Self.timers, environment: TimerEnvironment(clock: clock))
    await store.send(.add(1))
    await store.send(.add(2))
    // Both elements use the id "timer"; starting the second must not cancel the first.
    await store.send(.timers(.element(id: 1, action: .start)))
    await store.send(.timers(.element(id: 2, action: .start)))
    for tick in 1...3 {
      await clock.advance(by: .seconds(1), whenSleeping: 2)
      #expect(await eventually { await store.state.timers.map(\.ticks) == [tick, tick] })
    }
    store.cancelEffects()
  }

  @Test func forEachCancelsTheEffectsOfARemovedElementWhileTheyRun() async {
    let clock = WatchedClock()
    let store = clockedStore(initialState: Timers(), reducer: Self.timers, environment: TimerEnvironment(clock: clock))
    await store.send(.add(1))
    await store.send(.add(2))
    let first = await store.send(.timers(.element(id: 1, action: .start)))
    let second = await store.send(.timers(.element(id: 2, action: .start)))
    await clock.advance(by: .seconds(1), whenSleeping: 2)
    #expect(await eventually { await store.state.timers.map(\.ticks) == [1, 1] })

    await store.send(.remove(1))
    await first.finish()
    #expect(first.isCancelled)
    #expect(!second.isCancelled)
    await clock.advance(by: .seconds(1), whenSleeping: 1)
    #expect(await eventually { await store.state.timers.map(\.ticks) == [2] })
    #expect(store.runningEffectCount == 1)
    store.cancelEffects()
  }

  @Test func forEachRefusesAnActionForAnUnknownElement() async {
    let store = clockedStore(initialState: Timers(), reducer: Self.timers, environment: TimerEnvironment(clock: WatchedClock()))
    let task = await store.send(.timers(.element(id: 42, action: .tick)))
    #expect(task.refusal == "There is no Timer with id 42")
  }
}
