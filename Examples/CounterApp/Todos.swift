import CasePaths
import Concord
import Foundation
import IdentifiedCollections

/// One to-do item. Starting it runs a timer that ticks every second until it is done, removed,
/// or stopped: an effect that belongs to the item and dies with it.
struct Todo: Equatable, Identifiable, Sendable {
  let id: Int
  var title: String
  var isDone = false
  var secondsSpent = 0
  var isRunning = false
}

@CasePathable
enum TodoAction: Equatable, Sendable {
  case toggle
  case rename(String)
  case start
  case stop
  case tick
}

struct TodoEnvironment: Sendable {
  var clock: any Clock<Duration>
}

enum TodoTimer: Hashable, Sendable { case id }

let todoReducer = Reducer<Todo, TodoAction, TodoEnvironment> { todo, action, environment in
  switch action {
  case .toggle:
    todo.isDone.toggle()
    todo.isRunning = false
    return .cancel(id: TodoTimer.id)
  case let .rename(title):
    let title = title.trimmingCharacters(in: .whitespaces)
    guard !title.isEmpty else { return .refuse("A to-do needs a title") }
    todo.title = title
    return .none
  case .start:
    guard !todo.isDone else { return .refuse("\"\(todo.title)\" is already done") }
    todo.isRunning = true
    return .run { send in
      while true {
        try await environment.clock.sleep(for: .seconds(1))
        await send(.tick)
      }
    }
    .cancellable(id: TodoTimer.id, cancelInFlight: true)
  case .stop:
    todo.isRunning = false
    return .cancel(id: TodoTimer.id)
  case .tick:
    todo.secondsSpent += 1
    return .none
  }
}

/// A list of to-dos: add, remove, and act on each one.
struct TodoList: Equatable, Sendable {
  var todos: IdentifiedArrayOf<Todo> = []
  var nextID = 1
}

@CasePathable
enum TodoListAction: Equatable, Sendable {
  case add(String)
  case remove(id: Int)
  case todos(IdentifiedAction<Int, TodoAction>)
}

let todoListReducer = Reducer<TodoList, TodoListAction, TodoEnvironment> { list, action, _ in
  switch action {
  case let .add(title):
    let title = title.trimmingCharacters(in: .whitespaces)
    guard !title.isEmpty else { return .refuse("A to-do needs a title") }
    list.todos.append(Todo(id: list.nextID, title: title))
    list.nextID += 1
    return .none
  case let .remove(id):
    guard list.todos.remove(id: id) != nil else { return .refuse("There is no to-do \(id)") }
    return .none
  case .todos:
    return .none
  }
}
.forEach(state: \.todos, action: \.todos, environment: { $0 }, element: todoReducer)
