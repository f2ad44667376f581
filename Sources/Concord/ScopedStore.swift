import CasePaths

/// A derived child store: a *view* of a part of a parent store's state and actions.
///
/// A scoped store holds no state of its own. Reading it reads the root store through the scope's
/// projection; sending to it embeds the action in the root's actions and sends it to the root. So
/// there is one source of truth, nothing to copy, and no action that could be lost between
/// stores.
///
/// ```swift
/// let settings = store.scope(state: \.settings, action: \.settings)
/// await settings.send(.toggleDarkMode)
/// for await dark in await settings.observe(\.isDarkMode) { apply(dark) }
/// ```
public struct ScopedStore<State: Sendable, Action: Sendable>: Sendable {
  @usableFromInline
  let view: StoreView<State>
  /// Sends straight to the root, through the composed embeddings. A closure rather than a method
  /// of `view`, so that it is built (and specialized) where the scope is made.
  @usableFromInline
  let sendToRoot: @Sendable (Action) async -> StoreTask

  @inlinable
  init(view: StoreView<State>, send: @escaping @Sendable (Action) async -> StoreTask) {
    self.view = view
    self.sendToRoot = send
  }

  /// The current state of this scope, read from the root store.
  public var state: State {
    get async { await view.currentState() }
  }

  /// Sends `action`, embedded in the root's actions, to the root store.
  @inlinable
  @discardableResult
  public func send(_ action: Action) async -> StoreTask {
    await sendToRoot(action)
  }

  /// The values of `project(state)` of this scope, each time they change.
  public func observe<Value: Equatable & Sendable>(
    _ project: @escaping @Sendable (State) -> Value,
    bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy = .bufferingNewest(1)
  ) async -> AsyncStream<Value> {
    await view.observe(project, bufferingPolicy: bufferingPolicy)
  }

  /// ``observe(_:bufferingPolicy:)`` through a key path.
  public func observe<Value: Equatable & Sendable>(
    _ keyPath: KeyPath<State, Value> & Sendable,
    bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy = .bufferingNewest(1)
  ) async -> AsyncStream<Value> {
    await view.observe({ $0[keyPath: keyPath] }, bufferingPolicy: bufferingPolicy)
  }

  /// Every distinct state of this scope.
  public func states(
    bufferingPolicy: AsyncStream<State>.Continuation.BufferingPolicy = .bufferingNewest(1)
  ) async -> AsyncStream<State> where State: Equatable {
    await view.observe({ $0 }, bufferingPolicy: bufferingPolicy)
  }

  /// A store of a part of this scope.
  @inlinable
  public func scope<ChildState: Sendable, ChildAction: Sendable>(
    state toChildState: KeyPath<State, ChildState> & Sendable,
    action toChildAction: KeyPath<Action.AllCasePaths, AnyCasePath<Action, ChildAction>>
  ) -> ScopedStore<ChildState, ChildAction> where Action: CasePathable {
    let casePath = Action.allCasePaths[keyPath: toChildAction]
    return scope(state: { $0[keyPath: toChildState] }, action: { casePath.embed($0) })
  }

  /// A store of a part of this scope, given a projection and an embedding as functions.
  @inlinable
  public func scope<ChildState: Sendable, ChildAction: Sendable>(
    state toChildState: @escaping @Sendable (State) -> ChildState,
    action embed: @escaping @Sendable (ChildAction) -> Action
  ) -> ScopedStore<ChildState, ChildAction> {
    let send = sendToRoot
    return ScopedStore<ChildState, ChildAction>(
      view: view.scope(state: toChildState),
      send: { await send(embed($0)) })
  }
}

extension Store {
  /// A derived child store of the part of the state at `toChildState`, taking the actions at the
  /// case path `toChildAction`.
  @inlinable
  public nonisolated func scope<ChildState: Sendable, ChildAction: Sendable>(
    state toChildState: KeyPath<State, ChildState> & Sendable,
    action toChildAction: KeyPath<Action.AllCasePaths, AnyCasePath<Action, ChildAction>>
  ) -> ScopedStore<ChildState, ChildAction> where Action: CasePathable {
    let casePath = Action.allCasePaths[keyPath: toChildAction]
    return scope(state: { $0[keyPath: toChildState] }, action: { casePath.embed($0) })
  }

  /// A derived child store, given a projection and an embedding as functions.
  @inlinable
  public nonisolated func scope<ChildState: Sendable, ChildAction: Sendable>(
    state toChildState: @escaping @Sendable (State) -> ChildState,
    action embed: @escaping @Sendable (ChildAction) -> Action
  ) -> ScopedStore<ChildState, ChildAction> {
    ScopedStore(
      view: RootStoreView(root: self, toState: toChildState),
      send: { [self] in await self.send(embed($0)) })
  }
}

/// What a scoped store sees: a projection of some root store. Subclassed once, by
/// `RootStoreView`, so that a scoped store need not carry the root's types.
@usableFromInline
class StoreView<State: Sendable>: @unchecked Sendable {
  func currentState() async -> State { fatalError("abstract") }
  func observe<Value: Equatable & Sendable>(
    _ project: @escaping @Sendable (State) -> Value,
    bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy
  ) async -> AsyncStream<Value> { fatalError("abstract") }
  @usableFromInline
  func scope<ChildState: Sendable>(
    state toChildState: @escaping @Sendable (State) -> ChildState
  ) -> StoreView<ChildState> { fatalError("abstract") }
}

/// A view straight onto the root store, for reading. Scoping a view again composes the
/// projections, so every scoped store, however deep, reads the root directly. (Sending goes
/// through `ScopedStore.sendToRoot`, which composes the embeddings.)
// Immutable after init, and everything it holds is Sendable.
@usableFromInline
final class RootStoreView<RootState: Sendable, RootAction: Sendable, State: Sendable>:
  StoreView<State>, @unchecked Sendable
{
  let root: Store<RootState, RootAction>
  let toState: @Sendable (RootState) -> State

  @usableFromInline
  init(root: Store<RootState, RootAction>, toState: @escaping @Sendable (RootState) -> State) {
    self.root = root
    self.toState = toState
  }

  override func currentState() async -> State {
    toState(await root.state)
  }

  override func observe<Value: Equatable & Sendable>(
    _ project: @escaping @Sendable (State) -> Value,
    bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy
  ) async -> AsyncStream<Value> {
    let toState = self.toState
    return await root.observe({ project(toState($0)) }, bufferingPolicy: bufferingPolicy)
  }

  override func scope<ChildState: Sendable>(
    state toChildState: @escaping @Sendable (State) -> ChildState
  ) -> StoreView<ChildState> {
    let toState = self.toState
    return RootStoreView<RootState, RootAction, ChildState>(
      root: root, toState: { toChildState(toState($0)) })
  }
}
