import Clocks
import Concord
import ConcordTesting
import Testing

/// What TestStore catches, and how it says so.
@Suite struct TestStoreTests {
  struct Profile: Equatable, Sendable {
    var name = "Ada"
    var visits = 0
  }
  enum ProfileAction: Equatable, Sendable { case visit, rename(String), visitLater, ping, pingRename(String) }

  static func profile(clock: TestClock<Duration>) -> Reducer<Profile, ProfileAction, Void> {
    Reducer { state, action, _ in
      switch action {
      case .visit:
        state.visits += 1
        return .none
      case let .rename(name):
        guard !name.isEmpty else { return .refuse("A name cannot be empty") }
        state.name = name
        return .none
      case .visitLater:
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.visit)
        }
      case .ping:
        return .send(.visit)
      case let .pingRename(name):
        return .send(.rename(name))
      }
    }
  }

  @Test func aWrongExpectationProducesAReadableDiff() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Profile(), reducer: Self.profile(clock: TestClock()))
      await store.send(.visit) { $0.visits = 2 }
    }
    // Unchanged lines are marked with a figure space (U+2007), so the columns line up.
    let unchanged = "\u{2007}"
    #expect(
      issues == [
        """
        A state change does not match expectation:

          \(unchanged) TestStoreTests.Profile(
          \(unchanged)   name: "Ada",
          −   visits: 2
          +   visits: 1
          \(unchanged) )

        (Expected: −, Actual: +)
        """
      ])
  }

  @Test func anUnassertedChangeIsCaught() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Profile(), reducer: Self.profile(clock: TestClock()))
      await store.send(.rename("Grace"))
    }
    #expect(issues.count == 1)
    #expect(issues.first?.hasPrefix("State was not expected to change, but a change occurred:") == true)
    #expect(issues.first?.contains("+   name: \"Grace\"") == true)
  }

  @Test func refusalsAreAssertedWithTheirReason() async {
    let store = TestStore(initialState: Profile(), reducer: Self.profile(clock: TestClock()))
    await store.send(.rename(""), refusedWith: "A name cannot be empty")

    let issues = await collectingIssues {
      let store = TestStore(initialState: Profile(), reducer: Self.profile(clock: TestClock()))
      await store.send(.rename(""))
      await store.send(.rename("Grace"), refusedWith: "A name cannot be empty")
    }
    #expect(issues.count == 3)
    #expect(issues.first == "The action was refused: A name cannot be empty\n\nTestStoreTests.ProfileAction.rename(\"\")")
    #expect(issues.dropFirst().first == "Expected the action to be refused (A name cannot be empty), but it was applied.")
  }

  @Test func aFedBackActionThatIsRefusedIsReceivedAsRefused() async {
    // `.pingRename("")` changes nothing itself and feeds back an empty rename, which is refused.
    let store = TestStore(initialState: Profile(), reducer: Self.profile(clock: TestClock()))
    await store.send(.pingRename(""))
    await store.receive(.rename(""), refusedWith: "A name cannot be empty")
    await store.finish()

    let issues = await collectingIssues {
      let store = TestStore(initialState: Profile(), reducer: Self.profile(clock: TestClock()))
      await store.send(.pingRename(""))
      await store.receive(.rename(""), refusedWith: "Names must be long")
      await store.send(.pingRename("Grace"))
      await store.receive(.rename("Grace"), refusedWith: "A name cannot be empty")
    }
    #expect(issues.count == 3)
    #expect(
      issues.prefix(2) == [
        "The received action was refused for another reason.\n\n  Expected: Names must be long\n  Actual:   A name cannot be empty",
        "Expected the received action to be refused (A name cannot be empty), but it was applied.",
      ])
    // The change it applied is still checked: the test said nothing would change.
    #expect(issues.last?.hasPrefix("State was not expected to change, but a change occurred:") == true)
  }

  @Test func receivedActionsMustBeAsserted() async {
    let store = TestStore(initialState: Profile(), reducer: Self.profile(clock: TestClock()))
    await store.send(.ping)
    await store.receive(.visit) { $0.visits = 1 }
    await store.finish()

    let issues = await collectingIssues {
      let store = TestStore(initialState: Profile(), reducer: Self.profile(clock: TestClock()))
      await store.send(.ping)
      await store.finish()
    }
    #expect(
      issues == [
        "The store received 1 action(s) that the test did not assert:\n\n  TestStoreTests.ProfileAction.visit"
      ])
  }

  @Test func receivingTheWrongActionShowsBoth() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Profile(), reducer: Self.profile(clock: TestClock()))
      await store.send(.ping)
      await store.receive(.ping) { $0.visits = 1 }
    }
    #expect(issues.count == 1)
    #expect(issues.first?.contains("Received an unexpected action:") == true)
    #expect(issues.first?.contains("− TestStoreTests.ProfileAction.ping") == true)
    #expect(issues.first?.contains("+ TestStoreTests.ProfileAction.visit") == true)
  }

  @Test func waitingForAnActionThatNeverComesFailsWithWhatWasExpected() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Profile(), reducer: Self.profile(clock: TestClock()))
      store.timeout = .milliseconds(20)
      await store.receive(.visit)
    }
    #expect(
      issues == ["Expected to receive an action, but none arrived in time:\n\nTestStoreTests.ProfileAction.visit"])
  }

  @Test func anAssertionThatThrowsIsReported() async {
    struct Unreadable: Error {}
    let issues = await collectingIssues {
      let store = TestStore(initialState: Profile(), reducer: Self.profile(clock: TestClock()))
      await store.send(.visit) {
        $0.visits = 1
        throw Unreadable()
      }
    }
    #expect(issues == ["The state assertion threw an error: Unreadable()"])
  }

  @Test func effectsWaitOnTheTestClock() async {
    let clock = TestClock()
    let store = TestStore(initialState: Profile(), reducer: Self.profile(clock: clock), clock: clock)
    await store.send(.visitLater)
    await clock.advance(by: .seconds(1))
    await store.receive(.visit) { $0.visits = 1 }
    await store.finish()
  }

  @Test func anEffectStillRunningAtTheEndFailsTheTest() async {
    let clock = TestClock()
    let issues = await collectingIssues {
      let store = TestStore(initialState: Profile(), reducer: Self.profile(clock: clock), clock: clock)
      store.timeout = .milliseconds(50)
      await store.send(.visitLater)
      await store.finish()
    }
    #expect(issues.count == 1)
    #expect(issues.first?.hasPrefix("1 effect(s) still running after") == true)
  }

  @Test func releasingTheStoreWithWorkLeftFailsTheTest() async {
    let clock = TestClock()
    let issues = await collectingIssues {
      let store = TestStore(initialState: Profile(), reducer: Self.profile(clock: clock), clock: clock)
      await store.send(.visitLater)
      await store.send(.ping)
    }
    #expect(issues.count == 2)
    #expect(issues.first?.hasPrefix("1 effect(s) still running when the test store was released") == true)
    #expect(issues.last == "The store received 1 action(s) that the test did not assert:\n\n  TestStoreTests.ProfileAction.visit")
  }

  @Test func receivedActionsMustBeHandledBeforeTheNextSend() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Profile(), reducer: Self.profile(clock: TestClock()))
      await store.send(.ping)
      await store.send(.visit) { $0.visits = 2 }
    }
    #expect(issues.count == 1)
    #expect(issues.first?.hasPrefix("Must handle 1 received action(s) before sending an action.") == true)
  }

  @Test func nonExhaustiveStoresCheckOnlyWhatIsAsserted() async {
    let clock = TestClock()
    let issues = await collectingIssues {
      let store = TestStore(initialState: Profile(), reducer: Self.profile(clock: clock), clock: clock)
      store.exhaustivity = .off
      await store.send(.rename("Grace"))
      await store.send(.ping)
      await store.send(.ping)
      await store.receive(.visit) { $0.visits = 2 }
      await store.send(.visitLater)
    }
    #expect(issues.isEmpty)

    let wrong = await collectingIssues {
      let store = TestStore(initialState: Profile(), reducer: Self.profile(clock: clock), clock: clock)
      store.exhaustivity = .off
      await store.send(.rename("Grace")) { $0.name = "Ada" }
    }
    #expect(wrong.count == 1)
  }
}
