import CasePaths
import Concord

/// The reducers the benchmarks drive.
enum Trivial: Sendable { case increment }

let trivialReducer = Reducer<Int, Trivial, Void> { count, _, _ in
  count += 1
  return .none
}

/// An action whose effect feeds one action back.
enum Feedback: Sendable { case ping, pong }

let syncFeedbackReducer = Reducer<Int, Feedback, Void> { count, action, _ in
  switch action {
  case .ping: return .send(.pong)
  case .pong:
    count += 1
    return .none
  }
}

let asyncFeedbackReducer = Reducer<Int, Feedback, Void> { count, action, _ in
  switch action {
  case .ping: return .run { send in await send(.pong) }
  case .pong:
    count += 1
    return .none
  }
}

/// Three levels of state and action, for a scope three deep.
struct Level1: Sendable { var level2 = Level2() }
struct Level2: Sendable { var level3 = Level3() }
struct Level3: Sendable { var count = 0 }

@CasePathable enum Action1: Sendable { case level2(Action2) }
@CasePathable enum Action2: Sendable { case level3(Action3) }
@CasePathable enum Action3: Sendable { case increment }

let level3Reducer = Reducer<Level3, Action3, Void> { state, _, _ in
  state.count += 1
  return .none
}

let nestedReducer: Reducer<Level1, Action1, Void> =
  level3Reducer
  .pullback(state: \Level2.level3, action: \Action2.AllCasePaths.level3, environment: { _ in () })
  .pullback(state: \Level1.level2, action: \Action1.AllCasePaths.level2, environment: { _ in () })
