/// A transition table, `(from, event) -> to`, that is also a reducer: a Mealy machine whose
/// output is an effect.
///
/// Each row says from which states, on which event, to which state, and optionally what effect to
/// start. The first row that matches wins. An event with no row for the current state is refused
/// with a reason, and the state stays as it was — so a flow can be tested by feeding it event
/// sequences and checking where it ends and what it refused.
///
/// ```swift
/// enum Signup: Hashable { case email, password, confirm, registering, done }
/// enum SignupEvent: Hashable { case next, back, submit, succeeded }
///
/// let signup = Automaton<Signup, SignupEvent, SignupEnvironment> {
///   SignupEvent.next   | .email       => .password
///   SignupEvent.next   | .password    => .confirm
///   SignupEvent.back   | [.password, .confirm] => .email
///   Transition(from: .confirm, on: .submit, to: .registering) { _, _, env in
///     .run { send in try await env.register(); await send(.succeeded) }
///   }
///   SignupEvent.succeeded | .registering => .done
/// }
/// let store = Store(initialState: .email, reducer: signup.reducer, environment: .live)
/// ```
public struct Automaton<State: Sendable, Event: Sendable, Environment>: Sendable {
  /// The table, in the order rows are tried.
  public let transitions: [Transition<State, Event, Environment>]

  /// A machine from rows built elsewhere, tried in this order.
  ///
  /// - Parameter transitions: the table, the first matching row winning.
  public init(transitions: [Transition<State, Event, Environment>]) {
    self.transitions = transitions
  }

  /// A machine from rows written one per line, as in the example above.
  ///
  /// - Parameter table: the rows, in the order they are tried; `if`, `switch` and `for` may
  ///   choose or repeat rows.
  public init(
    @TransitionTableBuilder<State, Event, Environment> _ table: () -> [Transition<State, Event, Environment>]
  ) {
    self.transitions = table()
  }

  /// The row that `event` takes from `state`, if any.
  public func transition(from state: State, on event: Event) -> Transition<State, Event, Environment>? {
    transitions.first { $0.matchesState(state) && $0.matchesEvent(event) }
  }

  /// The machine as a reducer: each event moves the state along the table and starts the row's
  /// output; an event with no row is refused.
  public var reducer: Reducer<State, Event, Environment> {
    let machine = self
    return Reducer { state, event, environment in
      guard let row = machine.transition(from: state, on: event) else {
        return .refuse(Refusal("No transition from \(state) on \(event)"))
      }
      let previous = state
      state = row.target(previous, event)
      return row.output?(previous, event, environment) ?? .none
    }
  }
}

/// One row of an ``Automaton``'s table.
public struct Transition<State: Sendable, Event: Sendable, Environment>: Sendable {
  /// The output of a row: an effect, given the state it left, the event, and the environment.
  public typealias Output = @Sendable (State, Event, Environment) -> Effect<Event>

  let matchesState: @Sendable (State) -> Bool
  let matchesEvent: @Sendable (Event) -> Bool
  let target: @Sendable (State, Event) -> State
  let output: Output?

  /// The most general row: predicates for the source state and the event, a function for the
  /// target state (which may read the event's payload), and an optional output.
  public init(
    from matchesState: @escaping @Sendable (State) -> Bool,
    when matchesEvent: @escaping @Sendable (Event) -> Bool,
    to target: @escaping @Sendable (State, Event) -> State,
    output: Output? = nil
  ) {
    self.matchesState = matchesState
    self.matchesEvent = matchesEvent
    self.target = target
    self.output = output
  }

  /// A row from one state, on one event, to one state.
  public init(from source: State, on event: Event, to target: State, output: Output? = nil)
  where State: Equatable, Event: Equatable {
    self.init(from: { $0 == source }, when: { $0 == event }, to: { _, _ in target }, output: output)
  }

  /// A row from any of several states, on one event, to one state.
  public init(from sources: [State], on event: Event, to target: State, output: Output? = nil)
  where State: Equatable, Event: Equatable {
    self.init(
      from: { sources.contains($0) }, when: { $0 == event }, to: { _, _ in target }, output: output)
  }

  /// A row from any state, on one event, to one state.
  public static func fromAnyState(on event: Event, to target: State, output: Output? = nil) -> Self
  where Event: Equatable {
    Self(from: { _ in true }, when: { $0 == event }, to: { _, _ in target }, output: output)
  }

  /// This row, starting `output` when it is taken.
  public func withOutput(_ output: @escaping Output) -> Self {
    Self(from: matchesState, when: matchesEvent, to: target, output: output)
  }
}

/// Builds an ``Automaton``'s table from rows written one per line.
@resultBuilder
public enum TransitionTableBuilder<State: Sendable, Event: Sendable, Environment> {
  /// One row of the table.
  public typealias Row = Transition<State, Event, Environment>

  /// A row on a line of its own.
  public static func buildExpression(_ row: Row) -> [Row] { [row] }
  /// Rows made elsewhere (a helper returning several), spliced in place.
  public static func buildExpression(_ rows: [Row]) -> [Row] { rows }
  /// The lines of a block, in order.
  public static func buildBlock(_ rows: [Row]...) -> [Row] { rows.flatMap { $0 } }
  /// Rows under an `if` without `else`: none when the condition is false.
  public static func buildOptional(_ rows: [Row]?) -> [Row] { rows ?? [] }
  /// The rows of an `if`'s first branch (or a `switch`'s case).
  public static func buildEither(first rows: [Row]) -> [Row] { rows }
  /// The rows of an `else` (or a later `switch` case).
  public static func buildEither(second rows: [Row]) -> [Row] { rows }
  /// The rows a `for` loop writes, in the loop's order.
  public static func buildArray(_ rows: [[Row]]) -> [Row] { rows.flatMap { $0 } }
}

// MARK: - The `event | from => to` notation of Harvest and RxAutomaton

/// An event and the states it may leave: the left side of `event | from => to`.
public struct TransitionSource<State: Sendable, Event: Sendable>: Sendable {
  let matchesState: @Sendable (State) -> Bool
  let matchesEvent: @Sendable (Event) -> Bool
}

precedencegroup TransitionPrecedence {
  lowerThan: ComparisonPrecedence
  higherThan: AssignmentPrecedence
}
infix operator => : TransitionPrecedence

/// `event | state`: the event, taken from one state.
public func | <State: Equatable & Sendable, Event: Equatable & Sendable>(
  event: Event, state: State
) -> TransitionSource<State, Event> {
  TransitionSource(matchesState: { $0 == state }, matchesEvent: { $0 == event })
}

/// `event | [states]`: the event, taken from any of several states.
public func | <State: Equatable & Sendable, Event: Equatable & Sendable>(
  event: Event, states: [State]
) -> TransitionSource<State, Event> {
  TransitionSource(matchesState: { states.contains($0) }, matchesEvent: { $0 == event })
}

/// `source => target`: a table row with no output.
public func => <State: Sendable, Event: Sendable, Environment>(
  source: TransitionSource<State, Event>, target: State
) -> Transition<State, Event, Environment> {
  Transition(from: source.matchesState, when: source.matchesEvent, to: { _, _ in target })
}
