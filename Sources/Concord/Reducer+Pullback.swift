import CasePaths

extension Reducer {
  /// Lifts this child reducer into a parent: it sees the parent's actions at the case path
  /// `action` and the parent's state at the key path `state`, in an environment derived from the
  /// parent's. Other parent actions pass through untouched.
  ///
  /// This is Actomaton's `contramap` and TCA's `Scope`. The child's effect ids and queues move into
  /// the child's namespace (its place in the parent), so two instances of one feature never
  /// cancel each other's effects; to cancel a child's effect, send the child an action.
  /// `action` names a case of a `@CasePathable` enum, as in `\.counter`; it is resolved once,
  /// when the reducer is built, so the composed reducer pays nothing per action for the key path.
  ///
  /// ```swift
  /// let app = Reducer<AppState, AppAction, AppEnvironment>.combine(
  ///   counter.pullback(state: \.counter, action: \.counter, environment: { _ in () }),
  ///   settings.pullback(state: \.settings, action: \.settings, environment: \.settings)
  /// )
  /// ```
  @inlinable
  public func pullback<ParentState, ParentAction: CasePathable & Sendable, ParentEnvironment>(
    state toChildState: WritableKeyPath<ParentState, State>,
    action toChildAction: KeyPath<ParentAction.AllCasePaths, AnyCasePath<ParentAction, Action>>,
    environment toChildEnvironment: @escaping @Sendable (ParentEnvironment) -> Environment
  ) -> Reducer<ParentState, ParentAction, ParentEnvironment> {
    pullback(
      state: toChildState, action: ParentAction.allCasePaths[keyPath: toChildAction],
      environment: toChildEnvironment)
  }

  /// ``pullback(state:action:environment:)`` with a case path given as a value, for example one
  /// built from embed and extract closures.
  @inlinable
  public func pullback<ParentState, ParentAction: Sendable, ParentEnvironment>(
    state toChildState: WritableKeyPath<ParentState, State>,
    action toChildAction: AnyCasePath<ParentAction, Action>,
    environment toChildEnvironment: @escaping @Sendable (ParentEnvironment) -> Environment
  ) -> Reducer<ParentState, ParentAction, ParentEnvironment> {
    nonisolated(unsafe) let toChildState = toChildState
    let child = self.run
    let namespace = ChildNamespace(toChildState).id
    return Reducer<ParentState, ParentAction, ParentEnvironment> { state, action, environment in
      guard let childAction = toChildAction.extract(from: action) else { return .none }
      let effect = child(&state[keyPath: toChildState], childAction, toChildEnvironment(environment))
      if effect.isNone { return .none }
      return effect.map { toChildAction.embed($0) }.renamingIDs(into: namespace)
    }
  }
}
