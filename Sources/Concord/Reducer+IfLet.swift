import CasePaths

extension Reducer {
  /// Runs `child` on the optional child state at `toChild` whenever a child action arrives, before
  /// this (the parent's) reducer runs.
  ///
  /// - A child action that arrives while the child state is `nil` is refused: the thing it was
  ///   meant for is gone.
  /// - When the parent sets the child state to `nil`, every effect the child started is
  ///   cancelled.
  ///
  /// ```swift
  /// let app = appCore.ifLet(
  ///   state: \.editor, action: \.editor, environment: { $0.editor }, then: editor
  /// )
  /// ```
  @inlinable
  public func ifLet<Child, ChildAction: Sendable, ChildEnvironment>(
    state toChild: WritableKeyPath<State, Child?>,
    action toChildAction: KeyPath<Action.AllCasePaths, AnyCasePath<Action, ChildAction>>,
    environment toChildEnvironment: @escaping @Sendable (Environment) -> ChildEnvironment,
    then child: Reducer<Child, ChildAction, ChildEnvironment>
  ) -> Reducer where Action: CasePathable {
    nonisolated(unsafe) let toChild = toChild
    let toChildAction = Action.allCasePaths[keyPath: toChildAction]
    let namespace = ChildNamespace(toChild).id
    let parent = self.run
    let childName = String(describing: Child.self)
    return Reducer { state, action, environment in
      var childEffect = Effect<Action>.none
      if let childAction = toChildAction.extract(from: action) {
        guard state[keyPath: toChild] != nil else {
          return .refuse(Refusal("There is no \(childName) to receive \(childAction) any more"))
        }
        let effect = child.run(&state[keyPath: toChild]!, childAction, toChildEnvironment(environment))
        if effect.refusal != nil { return effect.map { toChildAction.embed($0) } }
        childEffect = effect.map { toChildAction.embed($0) }.namespaced(by: namespace)
      }
      let wasPresent = state[keyPath: toChild] != nil
      let parentEffect = parent(&state, action, environment)
      if parentEffect.refusal != nil { return parentEffect }
      let dismissal: Effect<Action> =
        wasPresent && state[keyPath: toChild] == nil ? .cancel(id: namespace) : .none
      return .merge(childEffect, parentEffect, dismissal)
    }
  }

  /// Runs `child` on the case `toChild` of this enum state whenever a child action arrives,
  /// before this (the parent's) reducer runs.
  ///
  /// - A child action that arrives while the state is in another case is refused.
  /// - When the parent moves the state out of the case, the child's effects are cancelled.
  ///
  /// ```swift
  /// @CasePathable enum Session { case loggedOut(LoginState), loggedIn(HomeState) }
  /// let session = sessionCore.ifCaseLet(
  ///   state: \.loggedIn, action: \.home, environment: { $0 }, then: home
  /// )
  /// ```
  @inlinable
  public func ifCaseLet<Child, ChildAction: Sendable, ChildEnvironment>(
    state toChild: KeyPath<State.AllCasePaths, AnyCasePath<State, Child>>,
    action toChildAction: KeyPath<Action.AllCasePaths, AnyCasePath<Action, ChildAction>>,
    environment toChildEnvironment: @escaping @Sendable (Environment) -> ChildEnvironment,
    then child: Reducer<Child, ChildAction, ChildEnvironment>
  ) -> Reducer where State: CasePathable, Action: CasePathable {
    ifCaseLet(
      state: State.allCasePaths[keyPath: toChild],
      namespace: ChildNamespace(toChild).id,
      action: Action.allCasePaths[keyPath: toChildAction],
      environment: toChildEnvironment,
      then: child)
  }

  @inlinable
  func ifCaseLet<Child, ChildAction: Sendable, ChildEnvironment>(
    state toChildState: AnyCasePath<State, Child>,
    namespace: EffectID,
    action toChildAction: AnyCasePath<Action, ChildAction>,
    environment toChildEnvironment: @escaping @Sendable (Environment) -> ChildEnvironment,
    then child: Reducer<Child, ChildAction, ChildEnvironment>
  ) -> Reducer {
    let parent = self.run
    let childName = String(describing: Child.self)
    return Reducer { state, action, environment in
      var childEffect = Effect<Action>.none
      if let childAction = toChildAction.extract(from: action) {
        guard var childState = toChildState.extract(from: state) else {
          return .refuse(Refusal("\(childAction) needs \(childName), which is not the current state"))
        }
        let effect = child.run(&childState, childAction, toChildEnvironment(environment))
        if effect.refusal != nil { return effect.map { toChildAction.embed($0) } }
        state = toChildState.embed(childState)
        childEffect = effect.map { toChildAction.embed($0) }.namespaced(by: namespace)
      }
      let wasInCase = toChildState.extract(from: state) != nil
      let parentEffect = parent(&state, action, environment)
      if parentEffect.refusal != nil { return parentEffect }
      let exit: Effect<Action> =
        wasInCase && toChildState.extract(from: state) == nil ? .cancel(id: namespace) : .none
      return .merge(childEffect, parentEffect, exit)
    }
  }
}
