import CasePaths

extension Reducer {
  /// Lifts this child reducer into a parent: it sees the parent's actions at the case path
  /// `action` and the parent's state at the key path `state`, in an environment derived from the
  /// parent's. Other parent actions pass through untouched.
  ///
  /// This is Actomaton's `contramap` and TCA's `Scope`.
  ///
  /// ```swift
  /// let app = Reducer<AppState, AppAction, AppEnvironment>.combine(
  ///   counter.pullback(state: \.counter, action: \.counter, environment: { _ in () }),
  ///   settings.pullback(state: \.settings, action: \.settings, environment: \.settings)
  /// )
  /// ```
  public func pullback<ParentState, ParentAction: Sendable, ParentEnvironment>(
    state toChildState: WritableKeyPath<ParentState, State>,
    action toChildAction: CaseKeyPath<ParentAction, Action>,
    environment toChildEnvironment: @escaping @Sendable (ParentEnvironment) -> Environment
  ) -> Reducer<ParentState, ParentAction, ParentEnvironment> {
    pullback(
      state: toChildState, action: AnyCasePath(toChildAction), environment: toChildEnvironment)
  }

  /// ``pullback(state:action:environment:)`` with a hand-written case path (embed and extract
  /// closures), which avoids the dynamic casts of a case key path on the hottest paths.
  public func pullback<ParentState, ParentAction: Sendable, ParentEnvironment>(
    state toChildState: WritableKeyPath<ParentState, State>,
    action toChildAction: AnyCasePath<ParentAction, Action>,
    environment toChildEnvironment: @escaping @Sendable (ParentEnvironment) -> Environment
  ) -> Reducer<ParentState, ParentAction, ParentEnvironment> {
    nonisolated(unsafe) let toChildState = toChildState
    let child = self.run
    return Reducer<ParentState, ParentAction, ParentEnvironment> { state, action, environment in
      guard let childAction = toChildAction.extract(from: action) else { return .none }
      let effect = child(&state[keyPath: toChildState], childAction, toChildEnvironment(environment))
      return effect.isNone ? .none : effect.map { toChildAction.embed($0) }
    }
  }
}
