import Concord
import Synchronization

/// How an action reached the store under test: sent by the test, or fed back by an effect.
enum TestDelivery<Action: Sendable>: Sendable {
  case sent(Action)
  case received(Action)
}

/// One reduction the store under test performed: the action, the state right after it (or the
/// unchanged state, when it was refused), and the refusal.
struct ObservedReduction<State: Sendable, Action: Sendable>: Sendable {
  let action: Action
  let state: State
  let refusal: Refusal?
}

/// Collects what the store under test reduced, for the test to assert in order.
final class ReductionLog<State: Sendable, Action: Sendable>: Sendable {
  private let entries = Mutex(Entries())

  private struct Entries {
    var sent: ObservedReduction<State, Action>?
    var received: [ObservedReduction<State, Action>] = []
  }

  func record(_ delivery: TestDelivery<Action>, state: State, refusal: Refusal?) {
    entries.withLock {
      switch delivery {
      case let .sent(action):
        $0.sent = ObservedReduction(action: action, state: state, refusal: refusal)
      case let .received(action):
        $0.received.append(ObservedReduction(action: action, state: state, refusal: refusal))
      }
    }
  }

  func takeSent() -> ObservedReduction<State, Action>? {
    entries.withLock { entries in
      defer { entries.sent = nil }
      return entries.sent
    }
  }

  var received: [ObservedReduction<State, Action>] {
    entries.withLock { $0.received }
  }

  func removeReceived(first count: Int) {
    entries.withLock { $0.received.removeFirst(min(count, $0.received.count)) }
  }
}

extension Reducer where Action: Sendable, State: Sendable {
  /// The reducer under test, recording every reduction in `log`.
  func recording(into log: ReductionLog<State, Action>)
    -> Reducer<State, TestDelivery<Action>, Environment>
  {
    Reducer<State, TestDelivery<Action>, Environment> { state, delivery, environment in
      let action: Action
      switch delivery {
      case let .sent(sent): action = sent
      case let .received(received): action = received
      }
      let before = state
      let effect = self.reduce(into: &state, action: action, environment: environment)
      let refusal = effect.refusal
      log.record(delivery, state: refusal == nil ? state : before, refusal: refusal)
      return effect.map { .received($0) }
    }
  }
}
