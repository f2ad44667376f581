/// The single source of truth: an actor that holds the state, reduces actions one at a time, and
/// runs the effects they return.
///
/// ```swift
/// let store = Store(initialState: Counter(), reducer: counter, environment: ())
/// await store.send(.increment)
/// let count = await store.state.count   // 1
/// for await count in await store.observe(\.count) { print(count) }
/// ```
///
/// **Ordering.** Actions are reduced one at a time, to completion; nothing interleaves with a
/// reduction. Actions that a reduction feeds back with ``Effect/send(_:)`` are reduced right
/// after it, in order, before `send` returns and before any other action. Actions sent by async
/// effects enter like any other `send`, after the reduction that is under way.
///
/// **Refusals.** When the reducer refuses an action, the state is restored to exactly what it was
/// before the action, the reduction's effects are dropped, and the reason is returned in
/// ``StoreTask/refusal``.
///
/// **Cost.** A reduction that returns ``Effect/none`` starts no task and allocates nothing
/// beyond what the reducer itself does.
public actor Store<State: Sendable, Action: Sendable> {
  /// The current state.
  public var state: State { currentState }

  // The stored properties whose size does not depend on `State` come first: their offsets are
  // then known where the store's code is compiled for the app's types, and reading one is a load,
  // not a call to a generic accessor.
  /// The whole of `send` on the store. A closure made in the inlinable initializer, so that it is
  /// compiled for the app's own types where the store is made; the store's own generic code would
  /// pay a generic-metadata lookup for every effect it looks at.
  @usableFromInline
  let process: @Sendable (isolated Store, Action) -> StoreTask
  @usableFromInline
  let effects: EffectRuntime<Action>
  // Made on first use, from the actor, so that it can hold the store weakly.
  @usableFromInline @exclusivity(unchecked)
  var delivery: EffectRuntime<Action>.Delivery?
  @usableFromInline @exclusivity(unchecked)
  var observers: [UInt64: (State) -> Void] = [:]
  @usableFromInline
  var nextObserverID: UInt64 = 0
  @usableFromInline
  let debug: StoreDebug?
  // Only the store's own code touches these, on the store, and no reducer or observer can reach
  // the store synchronously: the runtime's check for overlapping accesses could never fire.
  @usableFromInline @exclusivity(unchecked)
  var currentState: State

  /// Makes a store.
  ///
  /// - Parameters:
  ///   - initialState: the state before any action.
  ///   - reducer: the app's reducer, usually composed from its features'.
  ///   - environment: what the reducer may use: clients, clocks, id generators.
  ///   - clock: the clock that effect-queue delays wait on. Pass a test clock in tests.
  ///   - effectStart: when an effect's task begins to run; see ``EffectStart``.
  ///   - debug: when set, each action is described with a diff of the state it changed.
  ///   - diagnostics: receives a line for each effect error that no handler caught.
  @inlinable
  public init<Environment: Sendable>(
    initialState: State,
    reducer: Reducer<State, Action, Environment>,
    environment: Environment,
    clock: any Clock<Duration> = ContinuousClock(),
    effectStart: EffectStart = .enqueued,
    debug: StoreDebug? = nil,
    diagnostics: @escaping @Sendable (String) -> Void = { print("concord:", $0) }
  ) {
    self.currentState = initialState
    let run = reducer.run
    self.process = { store, action in
      guard let debug = store.debug else {
        let before = store.currentState
        let effect = run(&store.currentState, action, environment)
        // The commonest reductions return nothing to do, or one task: no step to settle (a lone
        // `.run` is neither a refusal nor a send, so it is the step's whole work).
        if effect.isNone {
          if !store.observers.isEmpty { store.notifyObservers() }
          return StoreTask()
        }
        if case .run = effect.operation {
          let handle = startEffect(effect, on: store.effects, deliver: effectDelivery(for: store))
          if !store.observers.isEmpty { store.notifyObservers() }
          return StoreTask(effects: handle)
        }
        let first = Reduction(action, returned: effect, before: before, state: &store.currentState)
        return settle(first, on: store, reduce: { run(&$0, $1, environment) })
      }
      // Each step is described with the state before and after it.
      var before = store.currentState
      var after = before
      let describing: (inout State, Action) -> Effect<Action> = { state, action in
        before = state
        let effect = run(&state, action, environment)
        after = state
        return effect
      }
      let describe: (Reduction<Action>) -> Void = { step in
        debug.write(debug.describe(action: step.action, before: before, after: step.refusal == nil ? after : before, refusal: step.refusal))
      }
      let first = Reduction.reduce(action, into: &store.currentState, reduce: describing)
      describe(first)
      return settle(first, on: store, reduce: describing, describe: describe)
    }
    self.debug = debug
    self.effects = EffectRuntime(clock: clock, start: effectStart, diagnose: diagnostics)
  }

  /// Makes a store for a reducer that needs no environment.
  @inlinable
  public init(
    initialState: State,
    reducer: Reducer<State, Action, Void>,
    clock: any Clock<Duration> = ContinuousClock(),
    effectStart: EffectStart = .enqueued,
    debug: StoreDebug? = nil
  ) {
    self.init(
      initialState: initialState, reducer: reducer, environment: (), clock: clock,
      effectStart: effectStart, debug: debug)
  }

  deinit {
    effects.cancelAll()
  }

  /// Reduces `action` and starts its effects.
  ///
  /// - Returns: the effects the action started (await ``StoreTask/finish()`` to wait for them)
  ///   and the reason, if the reducer refused it.
  @inlinable
  @discardableResult
  public nonisolated func send(_ action: Action) async -> StoreTask {
    // The work is the `process` closure, made in the inlinable initializer and so compiled for
    // the app's own types; the optimizer does not specialize methods of a generic actor across
    // modules, and generic code here would pay a metadata lookup for every effect it touches.
    await reduceOnStore(action, store: self)
  }

  /// How many effects this store is running: started, sleeping in a queue delay, or waiting for a
  /// queue slot.
  public nonisolated var runningEffectCount: Int { effects.runningCount }

  // MARK: - Observation

  /// The values of `project(state)`, starting with the current one, each time it changes.
  ///
  /// Equal consecutive values are skipped. By default the stream keeps only the newest value for a
  /// consumer that falls behind: an observer sees the latest state, not every step to it.
  ///
  /// ```swift
  /// for await count in await store.observe(\.count) { render(count) }
  /// ```
  public func observe<Value: Equatable & Sendable>(
    _ project: @escaping @Sendable (State) -> Value,
    bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy = .bufferingNewest(1)
  ) -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Value.self, bufferingPolicy: bufferingPolicy)
    var last = project(currentState)
    continuation.yield(last)
    let id = nextObserverID
    nextObserverID += 1
    observers[id] = { state in
      let value = project(state)
      if value != last {
        last = value
        continuation.yield(value)
      }
    }
    continuation.onTermination = { [weak self] _ in
      Task { await self?.removeObserver(id) }
    }
    return stream
  }

  /// ``observe(_:bufferingPolicy:)`` through a key path.
  public func observe<Value: Equatable & Sendable>(
    _ keyPath: KeyPath<State, Value> & Sendable,
    bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy = .bufferingNewest(1)
  ) -> AsyncStream<Value> {
    observe({ $0[keyPath: keyPath] }, bufferingPolicy: bufferingPolicy)
  }

  /// Every distinct state, starting with the current one.
  public func states(
    bufferingPolicy: AsyncStream<State>.Continuation.BufferingPolicy = .bufferingNewest(1)
  ) -> AsyncStream<State> where State: Equatable {
    observe({ $0 }, bufferingPolicy: bufferingPolicy)
  }

  /// How many observation streams are open.
  public var observerCount: Int { observers.count }

  @usableFromInline
  func notifyObservers() {
    for observer in observers.values { observer(currentState) }
  }

  private func removeObserver(_ id: UInt64) {
    observers[id] = nil
  }
}

/// The body of ``Store/send(_:)``: hops onto the store and runs its `process` closure there.
@inlinable
@discardableResult
func reduceOnStore<State: Sendable, Action: Sendable>(
  _ action: Action, store: isolated Store<State, Action>
) -> StoreTask {
  store.process(store, action)
}

extension Store {
  /// Cancels every effect this store is running.
  public nonisolated func cancelEffects() {
    effects.cancelAll()
  }
}
