/// A pure function from an action to a new state and the effects to run next.
///
/// `Reducer<State, Action, Environment>` wraps `(inout State, Action, Environment) -> Effect<Action>`.
/// It is a value: combine reducers, pull a child's reducer back into its parent, lift it over an
/// optional, an enum case or an identified collection, or give it undo and redo. The environment
/// carries what the reducer may use but must not create itself (clocks, ids, clients), so the
/// same reducer replays a log deterministically.
///
/// ```swift
/// struct Counter: Equatable { var count = 0 }
/// enum CounterAction { case increment, decrement }
///
/// let counter = Reducer<Counter, CounterAction, Void> { state, action, _ in
///   switch action {
///   case .increment:
///     state.count += 1
///     return .none
///   case .decrement:
///     guard state.count > 0 else { return .refuse("The count is already zero") }
///     state.count -= 1
///     return .none
///   }
/// }
/// ```
public struct Reducer<State, Action: Sendable, Environment>: Sendable {
  @usableFromInline
  let run: @Sendable (inout State, Action, Environment) -> Effect<Action>

  /// Makes a reducer from a function.
  @inlinable
  public init(_ reduce: @escaping @Sendable (inout State, Action, Environment) -> Effect<Action>) {
    self.run = reduce
  }

  /// Applies `action` to `state`, returning the effects to run.
  ///
  /// When the result is a refusal (``Effect/refusal``), callers that want the state untouched
  /// must restore it: ``Store`` does so. Composition operators stop at the first refusal.
  @inlinable
  public func reduce(into state: inout State, action: Action, environment: Environment)
    -> Effect<Action>
  {
    run(&state, action, environment)
  }

  /// A reducer that changes nothing and runs nothing.
  public static var empty: Reducer {
    Reducer { _, _, _ in .none }
  }

  /// Runs several reducers on each action, in order, merging their effects.
  ///
  /// The first refusal ends the reduction: later reducers do not run, and the whole action is
  /// refused (the store then restores the state from before the action).
  @inlinable
  public static func combine(_ reducers: Reducer...) -> Reducer {
    combine(reducers)
  }

  /// Runs several reducers on each action, in order, merging their effects.
  @inlinable
  public static func combine(_ reducers: [Reducer]) -> Reducer {
    Reducer { state, action, environment in
      var effects: [Effect<Action>] = []
      for reducer in reducers {
        let effect = reducer.run(&state, action, environment)
        if effect.refusal != nil { return effect }
        if !effect.isNone { effects.append(effect) }
      }
      return effects.isEmpty ? .none : .merge(effects)
    }
  }

  /// This reducer, then `other`.
  public func combined(with other: Reducer) -> Reducer {
    .combine(self, other)
  }

  /// A reducer that works in another environment, given a way to derive this one from it.
  public func environment<NewEnvironment>(
    _ transform: @escaping @Sendable (NewEnvironment) -> Environment
  ) -> Reducer<State, Action, NewEnvironment> {
    let run = self.run
    return Reducer<State, Action, NewEnvironment> { state, action, environment in
      run(&state, action, transform(environment))
    }
  }
}
