/// The tasks that one reduction started, to await or cancel together.
///
/// A reduction that returns no async work starts no task, and its handle is empty and free.
public struct EffectHandle: Sendable {
  @usableFromInline
  var tasks: OneOrMany<Task<Void, Never>> = .none

  /// A handle of no tasks: what a reduction that started nothing returns.
  @inlinable
  public init() {}

  /// True when no task was started.
  @inlinable
  public var isEmpty: Bool { tasks.isEmpty }

  @inlinable
  mutating func append(_ task: Task<Void, Never>) {
    tasks.append(task)
  }

  @inlinable
  mutating func append(contentsOf other: EffectHandle) {
    other.tasks.forEach { tasks.append($0) }
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

  @inlinable
  func forEach(_ body: (Task<Void, Never>) -> Void) {
    tasks.forEach(body)
  }
}
