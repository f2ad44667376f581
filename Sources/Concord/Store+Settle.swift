// The slow path of `Store.send` (a reduction with something to start or feed back; the
// commonest ones return from the store's `process` closure first), and where effects' actions
// come back in.
//
// These are free functions with an `isolated` store parameter rather than methods of the store:
// called from the store's `process` closure, which is compiled for the app's own types, they are
// specialized too (methods of a generic actor are not, across modules), so the path an effect
// takes pays no generic-metadata lookups.

/// Starts the work of `first`, the step of the action sent, then reduces what it fed back
/// (``Reduction/reduceFeedback(of:into:reduce:check:each:)``), starting each step's work as it
/// goes, and tells observers once at the end.
@inlinable
func settle<State: Sendable, Action: Sendable>(
  _ first: Reduction<Action>, on store: isolated Store<State, Action>,
  reduce: (inout State, Action) -> Effect<Action>,
  describe: ((Reduction<Action>) -> Void)? = nil
) -> StoreTask {
  // A refused action changed nothing: there is nothing to start, reduce or tell.
  if first.refusal != nil { return StoreTask(refusal: first.refusal) }
  var handle = EffectHandle()
  if !first.work.isNone {
    handle.append(contentsOf: startEffect(first.work, on: store.effects, deliver: effectDelivery(for: store)))
  }
  Reduction.reduceFeedback(of: first, into: &store.currentState, reduce: reduce) { step in
    describe?(step)
    if !step.work.isNone {
      handle.append(contentsOf: startEffect(step.work, on: store.effects, deliver: effectDelivery(for: store)))
    }
  }
  if !store.observers.isEmpty { store.notifyObservers() }
  return StoreTask(effects: handle)
}

/// Where the store's running effects send their actions; made once, holding the store weakly so
/// that a long-running effect does not keep a store alive.
@inlinable
func effectDelivery<State: Sendable, Action: Sendable>(
  for store: isolated Store<State, Action>
) -> EffectRuntime<Action>.Delivery {
  if let delivery = store.delivery { return delivery }
  let delivery: EffectRuntime<Action>.Delivery = { [weak store] action in
    guard let store else { return }
    await receive(action, fromEffectOn: store)
  }
  store.delivery = delivery
  return delivery
}

/// An action from a running effect. It runs on the effect's own task, so a cancelled effect's
/// action is dropped here, on the store, after the cancellation has been reduced.
@inlinable
func receive<State: Sendable, Action: Sendable>(
  _ action: Action, fromEffectOn store: isolated Store<State, Action>
) {
  guard !Task.isCancelled else { return }
  _ = store.process(store, action)
}
