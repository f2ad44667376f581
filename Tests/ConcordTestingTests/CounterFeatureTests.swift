import Clocks
import Concord
import ConcordTesting
import Testing

@testable import CounterApp

/// The example counter: a debounced save and a fact request that cancels the one in flight.
@Suite struct CounterFeatureTests {
  static func environment(clock: TestClock<Duration>, saved: Journal<Int>) -> CounterEnvironment {
    CounterEnvironment(
      save: { saved.append($0) },
      fact: { number in
        try await clock.sleep(for: .seconds(1))
        return "fact about \(number)"
      })
  }

  @Test func aBurstOfChangesIsSavedOnceAfterTheLastOne() async {
    let clock = TestClock()
    let saved = Journal<Int>()
    let store = TestStore(
      initialState: Counter(), reducer: counterReducer,
      environment: Self.environment(clock: clock, saved: saved), clock: clock)

    await store.send(.increment) { $0.count = 1 }
    await clock.advance(by: .milliseconds(300))
    await store.send(.increment) { $0.count = 2 }
    await clock.advance(by: .milliseconds(300))
    await store.send(.decrement) { $0.count = 1 }
    await clock.advance(by: .milliseconds(500))
    await store.receive(.saved(1)) { $0.lastSaved = 1 }
    await store.finish()
    #expect(saved.all == [1])
  }

  /// The story the README tells.
  @Test func savesFollowTheLastChangeAndZeroIsTheFloor() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: Counter(), reducer: counterReducer,
      environment: Self.environment(clock: clock, saved: Journal()), clock: clock)

    await store.send(.increment) { $0.count = 1 }
    await clock.advance(by: .milliseconds(300))
    await store.send(.increment) { $0.count = 2 }
    await clock.advance(by: .milliseconds(500))
    await store.receive(.saved(2)) { $0.lastSaved = 2 }
    await store.send(.decrement) { $0.count = 1 }
    await store.send(.decrement) { $0.count = 0 }
    await store.send(.decrement, refusedWith: "The count is already zero")
    await clock.advance(by: .milliseconds(500))
    await store.receive(.saved(0)) { $0.lastSaved = 0 }
    await store.finish()
  }

  @Test func theCountCannotGoBelowZero() async {
    let store = TestStore(
      initialState: Counter(), reducer: counterReducer,
      environment: Self.environment(clock: TestClock(), saved: Journal()))
    await store.send(.decrement, refusedWith: "The count is already zero")
  }

  @Test func aNewFactRequestCancelsTheOneInFlight() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: Counter(count: 3), reducer: counterReducer,
      environment: Self.environment(clock: clock, saved: Journal()), clock: clock)

    await store.send(.fetchFact) { $0.isFetchingFact = true }
    await clock.advance(by: .milliseconds(500))
    await store.send(.increment) { $0.count = 4 }
    await store.send(.fetchFact)
    await clock.advance(by: .milliseconds(500))
    await store.receive(.saved(4)) { $0.lastSaved = 4 }
    await clock.advance(by: .milliseconds(500))
    await store.receive(.factLoaded("fact about 4")) {
      $0.isFetchingFact = false
      $0.fact = "fact about 4"
    }
    await store.finish()
  }
}

/// The example to-do list: each item's timer belongs to the item and dies with it.
@Suite struct TodoListFeatureTests {
  @Test func aRemovedItemsTimerStops() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: TodoList(), reducer: todoListReducer,
      environment: TodoEnvironment(clock: clock), clock: clock)

    await store.send(.add("Write tests")) {
      $0.todos = [Todo(id: 1, title: "Write tests")]
      $0.nextID = 2
    }
    await store.send(.todos(.element(id: 1, action: .start))) { $0.todos[id: 1]?.isRunning = true }
    await clock.advance(by: .seconds(1))
    await store.receive(.todos(.element(id: 1, action: .tick))) { $0.todos[id: 1]?.secondsSpent = 1 }
    await store.send(.remove(id: 1)) { $0.todos = [] }
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  @Test func itemsRefuseWhatMakesNoSense() async {
    let store = TestStore(
      initialState: TodoList(), reducer: todoListReducer,
      environment: TodoEnvironment(clock: TestClock()))
    await store.send(.add("  "), refusedWith: "A to-do needs a title")
    await store.send(.todos(.element(id: 9, action: .toggle)), refusedWith: "There is no Todo with id 9")
    await store.send(.add("Ship")) {
      $0.todos = [Todo(id: 1, title: "Ship")]
      $0.nextID = 2
    }
    await store.send(.todos(.element(id: 1, action: .toggle))) { $0.todos[id: 1]?.isDone = true }
    await store.send(.todos(.element(id: 1, action: .start)), refusedWith: "\"Ship\" is already done")
    await store.send(.todos(.element(id: 1, action: .rename(""))), refusedWith: "A to-do needs a title")
  }
}

/// The example's command line parses what people type.
@Suite struct CommandTests {
  @Test func wordsBecomeActions() {
    #expect(Command.parse("+") == .success(.send(.action(.counter(.increment)))))
    #expect(Command.parse("add Buy milk") == .success(.send(.action(.list(.add("Buy milk"))))))
    #expect(
      Command.parse("rename 2 New title")
        == .success(.send(.action(.list(.todos(.element(id: 2, action: .rename("New title"))))))))
    #expect(Command.parse("jump 0") == .success(.send(.jump(to: 0))))
  }

  @Test func mistakesGetAHint() {
    #expect(Command.parse("done x") == .failure(ParseError("done needs a to-do number, like: done 1")))
    #expect(Command.parse("fly") == .failure(ParseError("Unknown command \"fly\". Type help for the list.")))
  }
}
