import Concord
import Testing

/// A sign-up flow as a transition table, tested by event sequences: where does each sequence end,
/// and which events are refused on the way.
@Suite struct AutomatonTests {
  enum Signup: Hashable, Sendable { case email, password, confirm, registering, done, failed }
  enum SignupEvent: Hashable, Sendable { case next, back, submit, succeeded, failed, retry }
  struct Environment: Sendable { var register: @Sendable () async throws -> Void }

  static let signup = Automaton<Signup, SignupEvent, Environment> {
    SignupEvent.next | Signup.email => Signup.password
    SignupEvent.next | Signup.password => Signup.confirm
    SignupEvent.back | [Signup.password, .confirm] => Signup.email
    Transition(from: .confirm, on: .submit, to: .registering) { _, _, environment in
      .run { send in
        do {
          try await environment.register()
          await send(.succeeded)
        } catch {
          await send(.failed)
        }
      }
    }
    SignupEvent.succeeded | Signup.registering => Signup.done
    SignupEvent.failed | Signup.registering => Signup.failed
    SignupEvent.retry | Signup.failed => Signup.confirm
  }

  /// Feeds events one by one; returns the final state and the refusals on the way.
  static func run(
    _ events: [SignupEvent], registration: @escaping @Sendable () async throws -> Void = {}
  ) async -> (Signup, [String]) {
    let store = Store(
      initialState: Signup.email, reducer: signup.reducer,
      environment: Environment(register: registration))
    var refusals: [String] = []
    for event in events {
      let task = await store.send(event)
      if let refusal = task.refusal { refusals.append(refusal.reason) }
      await task.finish()
    }
    return (await store.state, refusals)
  }

  @Test func theHappyPath() async {
    let (state, refusals) = await Self.run([.next, .next, .submit])
    #expect(state == .done)
    #expect(refusals.isEmpty)
  }

  @Test func goingBackFromAnyLaterStep() async {
    #expect(await Self.run([.next, .back]).0 == .email)
    #expect(await Self.run([.next, .next, .back, .next]).0 == .password)
  }

  @Test func eventsWithNoTransitionAreRefusedAndChangeNothing() async {
    let (state, refusals) = await Self.run([.back, .submit, .next])
    #expect(state == .password)
    #expect(refusals == ["No transition from email on back", "No transition from email on submit"])
  }

  @Test func aFailedRegistrationCanBeRetried() async {
    struct Offline: Error {}
    let (state, refusals) = await Self.run([.next, .next, .submit, .retry]) { throw Offline() }
    #expect(state == .confirm)
    #expect(refusals.isEmpty)
  }

  @Test func theTableAnswersWhichRowAnEventTakes() {
    #expect(Self.signup.transition(from: .email, on: .next) != nil)
    #expect(Self.signup.transition(from: .done, on: .next) == nil)
  }

  @Test func rowsMayReadTheEventsPayload() async {
    enum Door: Equatable, Sendable { case locked(code: Int), open }
    enum Input: Equatable, Sendable { case code(Int), close }
    let door = Automaton<Door, Input, Void> {
      Transition(
        from: { if case .locked = $0 { true } else { false } },
        when: { if case .code = $0 { true } else { false } },
        to: { state, input in
          guard case let .locked(code) = state, case let .code(entered) = input, entered == code else {
            return state
          }
          return .open
        })
      Transition.fromAnyState(on: Input.close, to: Door.locked(code: 1234))
    }
    let store = Store(initialState: Door.locked(code: 1234), reducer: door.reducer)
    await store.send(.code(1111))
    #expect(await store.state == .locked(code: 1234))
    await store.send(.code(1234))
    #expect(await store.state == .open)
    #expect(await store.send(.code(1)).refusal == "No transition from open on code(1)")
  }
}
