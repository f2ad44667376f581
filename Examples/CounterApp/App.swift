import CasePaths
import Concord

/// The example app: a counter and a to-do list side by side, with undo and redo over both.
struct AppState: Equatable, Sendable {
  var counter = Counter()
  var list = TodoList()
}

@CasePathable
enum AppAction: Equatable, Sendable {
  case counter(CounterAction)
  case list(TodoListAction)
}

struct AppEnvironment: Sendable {
  var counter: CounterEnvironment
  var todo: TodoEnvironment
}

let appReducer = Reducer<AppState, AppAction, AppEnvironment>.combine(
  counterReducer.pullback(state: \.counter, action: \.counter, environment: \.counter),
  todoListReducer.pullback(state: \.list, action: \.list, environment: \.todo)
)

/// Undo and redo cover what a person does, not what timers and saves report back.
let undoableAppReducer = appReducer.history(maxDepth: 50) { action in
  switch action {
  case .counter(.increment), .counter(.decrement), .list(.add), .list(.remove),
    .list(.todos(.element(_, .toggle))), .list(.todos(.element(_, .rename))):
    return true
  default:
    return false
  }
}
