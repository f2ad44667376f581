import CasePaths
import Concord

/// A counter that saves itself shortly after the last change (debounced) and can fetch a fact
/// about its number (a newer request cancels the one in flight).
struct Counter: Equatable, Sendable {
  var count = 0
  var lastSaved: Int?
  var fact: String?
  var isFetchingFact = false
}

@CasePathable
enum CounterAction: Equatable, Sendable {
  case increment
  case decrement
  case saved(Int)
  case fetchFact
  case factLoaded(String)
}

struct CounterEnvironment: Sendable {
  var save: @Sendable (Int) async throws -> Void
  var fact: @Sendable (Int) async throws -> String
}

extension EffectQueue {
  /// Saves wait half a second; a newer change restarts the wait, so only the last one is saved.
  static let save = EffectQueue("save", .newest(1), delay: .milliseconds(500))
}

enum FactRequest: Hashable, Sendable { case id }

let counterReducer = Reducer<Counter, CounterAction, CounterEnvironment> { state, action, environment in
  switch action {
  case .increment:
    state.count += 1
    return save(state.count, environment)
  case .decrement:
    guard state.count > 0 else { return .refuse("The count is already zero") }
    state.count -= 1
    return save(state.count, environment)
  case let .saved(count):
    state.lastSaved = count
    return .none
  case .fetchFact:
    state.isFetchingFact = true
    return .run { [count = state.count] send in
      await send(.factLoaded(try await environment.fact(count)))
    }
    .cancellable(id: FactRequest.id, cancelInFlight: true)
  case let .factLoaded(fact):
    state.isFetchingFact = false
    state.fact = fact
    return .none
  }
}

private func save(_ count: Int, _ environment: CounterEnvironment) -> Effect<CounterAction> {
  .run { send in
    try await environment.save(count)
    await send(.saved(count))
  }
  .queued(in: .save)
}
