// The slow path of `Store.send`: reductions that returned work.
//
// These are free functions with an `isolated` store parameter rather than methods of the store:
// called from the store's `process` closure, which is compiled for the app's own types, they are
// specialized too (methods of a generic actor are not, across modules), so the path an effect
// takes pays no generic-metadata lookups.

/// Starts the effects of a reduction, reduces what they fed back synchronously, and tells
/// observers once at the end.
@inlinable
func settle<State: Sendable, Action: Sendable>(
  _ action: Action, before: State, effect: Effect<Action>, on store: isolated Store<State, Action>
) -> StoreTask {
  if let refusal = effect.refusal {
    store.currentState = before
    store.debug.map { $0.write($0.describe(action: action, before: before, after: before, refusal: refusal)) }
    return StoreTask(refusal: refusal)
  }
  store.debug.map {
    $0.write($0.describe(action: action, before: before, after: store.currentState, refusal: nil))
  }
  let deliver = effectDelivery(for: store)
  if case .run = effect.operation {
    // A lone `.run`, the commonest effect, feeds nothing back: the loop below would only cost
    // (measured: about 0.04× of the awaited round trip).
    var noFeedback: [Action] = []
    let handle = startEffect(effect, on: store.effects, feedback: &noFeedback, deliver: deliver)
    if !store.observers.isEmpty { store.notifyObservers() }
    return StoreTask(effects: handle)
  }
  var handle = EffectHandle()
  var feedback: [Action] = []
  var next = 0
  var pending = effect
  while true {
    let action: Action
    if case let .send(sent) = pending.operation, next == feedback.count {
      // A lone send with nothing queued before it: reduce it right away, no queue needed.
      action = sent
    } else {
      if !pending.isNone {
        handle.append(
          contentsOf: startEffect(pending, on: store.effects, feedback: &feedback, deliver: deliver))
      }
      guard next < feedback.count else { break }
      action = feedback[next]
      next += 1
    }
    let before = store.currentState
    pending = store.reduce(&store.currentState, action)
    let refusal = pending.refusal
    if refusal != nil {
      store.currentState = before
      pending = .none
    }
    store.debug.map {
      $0.write($0.describe(action: action, before: before, after: store.currentState, refusal: refusal))
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
