/// The tasks that one reduction started, to await or cancel together.
///
/// A reduction that returns no async work starts no task, and its handle is empty and free.
public struct EffectHandle: Sendable {
  @usableFromInline
  enum Tasks: Sendable {
    case none
    case one(Task<Void, Never>)
    case many([Task<Void, Never>])
  }

  @usableFromInline
  var tasks: Tasks = .none

  @inlinable
  public init() {}

  /// True when no task was started.
  @inlinable
  public var isEmpty: Bool {
    if case .none = tasks { return true }
    return false
  }

  @usableFromInline
  mutating func append(_ task: Task<Void, Never>) {
    switch tasks {
    case .none: tasks = .one(task)
    case let .one(first): tasks = .many([first, task])
    case var .many(all):
      tasks = .none
      all.append(task)
      tasks = .many(all)
    }
  }

  @usableFromInline
  mutating func append(contentsOf other: EffectHandle) {
    switch other.tasks {
    case .none: break
    case let .one(task): append(task)
    case let .many(all): for task in all { append(task) }
    }
  }

  /// Cancels every task of this handle.
  @inlinable
  public func cancel() {
    forEach { $0.cancel() }
  }

  /// True when any task of this handle was cancelled.
  public var isCancelled: Bool {
    var cancelled = false
    forEach { cancelled = cancelled || $0.isCancelled }
    return cancelled
  }

  /// Waits until every task has finished. Like `Task.value`, it does not cancel the tasks when
  /// the waiting task is cancelled; see ``StoreTask/finish()``.
  @inlinable
  public func finish() async {
    switch tasks {
    case .none: return
    case let .one(task): await task.value
    case let .many(all): for task in all { await task.value }
    }
  }

  @usableFromInline
  func forEach(_ body: (Task<Void, Never>) -> Void) {
    switch tasks {
    case .none: break
    case let .one(task): body(task)
    case let .many(all): all.forEach(body)
    }
  }
}
