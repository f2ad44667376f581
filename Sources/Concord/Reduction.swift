/// One action reduced, by the one rule every runtime follows: the ``Store``, the daemon's host,
/// boot replay of a log, and a window showing an action before the daemon has it.
///
/// The rule:
/// - The reducer runs on the state. If it refuses (``Effect/refuse(_:)``, from any level of
///   composition), the state is restored to exactly what it was before, and the reduction feeds
///   nothing back and starts nothing.
/// - Otherwise the actions its effect sends with ``Effect/send(_:)`` are its ``feedback``: they
///   are reduced next, in order, each by this same rule, before any other action.
///   ``reduceWithFeedback(_:into:reduce:check:each:)`` does that, breadth first, as the store
///   always has.
/// - What remains of the effect (tasks, cancellations, queues) is its ``work``, started when the
///   runtime decides: the store at once, the daemon once the action is durable, replay never.
///
/// ```swift
/// var state = Counter()
/// Reduction.reduceWithFeedback(.tapped, into: &state, reduce: { counter.run(&$0, $1, ()) }) { step in
///   print(step.action, step.refusal ?? "applied")   // .tapped, then what it fed back
/// }
/// ```
public struct Reduction<Action: Sendable>: Sendable {
  /// The action that was reduced.
  public let action: Action
  /// Why it was refused. The state is then as it was before the action; there is no feedback and
  /// no work.
  public let refusal: Refusal?
  /// The actions the reduction sent with ``Effect/send(_:)``, in order: reduced next, before any
  /// other action.
  public let feedback: [Action]
  /// The rest of the effect, to start later: it holds none of the `feedback`.
  public let work: Effect<Action>

  @inlinable
  init(action: Action, refusal: Refusal?, feedback: [Action], work: Effect<Action>) {
    self.action = action
    self.refusal = refusal
    self.feedback = feedback
    self.work = work
  }

  /// Reduces `action` alone: what replaying a log does, where the feedback is in the log.
  ///
  /// - Parameters:
  ///   - action: the action to reduce.
  ///   - state: the state, changed by the action, or left exactly as it was when it is refused.
  ///   - reduce: the reducer.
  ///   - check: a runtime's own rule over the state before and after an applied action (the
  ///     daemon refuses a change that makes a scope too large to send); a reason refuses it.
  @inlinable
  public static func reduce<State>(
    _ action: Action, into state: inout State,
    reduce: (inout State, Action) -> Effect<Action>,
    check: ((_ before: State, _ after: State) -> Refusal?)? = nil
  ) -> Reduction {
    let before = state
    let effect = reduce(&state, action)
    if effect.isNone, check == nil {
      return Reduction(action: action, refusal: nil, feedback: [], work: .none)
    }
    if let refusal = effect.refusal ?? check?(before, state) {
      state = before
      return Reduction(action: action, refusal: refusal, feedback: [], work: .none)
    }
    var feedback: [Action] = []
    let work = effect.takingSends(into: &feedback)
    return Reduction(action: action, refusal: nil, feedback: feedback, work: work)
  }

  /// Reduces `action`, then every action fed back, breadth first, each by ``reduce(_:into:reduce:check:)``;
  /// nothing else can come between them. `each` is called after every step, in order.
  ///
  /// - Returns: the first step: the action that was sent.
  @inlinable
  @discardableResult
  public static func reduceWithFeedback<State>(
    _ action: Action, into state: inout State,
    reduce: (inout State, Action) -> Effect<Action>,
    check: ((_ before: State, _ after: State) -> Refusal?)? = nil,
    each: (Reduction) -> Void
  ) -> Reduction {
    let first = Reduction.reduce(action, into: &state, reduce: reduce, check: check)
    each(first)
    guard !first.feedback.isEmpty else { return first }
    var queue = first.feedback
    var next = 0
    while next < queue.count {
      let step = Reduction.reduce(queue[next], into: &state, reduce: reduce, check: check)
      next += 1
      each(step)
      queue.append(contentsOf: step.feedback)
    }
    return first
  }
}

extension Effect {
  /// This effect without the actions it sends at once, which are appended to `sends` in the
  /// order a runtime meets them. Sends inside `.concatenate` or a queue stay: they run as tasks.
  @inlinable
  func takingSends(into sends: inout [Action]) -> Effect {
    switch operation {
    case .none, .refuse, .run, .cancel, .concatenate, .queued:
      return self
    case let .send(action):
      sends.append(action)
      return .none
    case let .merge(effects):
      return .merge(effects.map { $0.takingSends(into: &sends) })
    case let .cancellable(id, cancelInFlight, effect):
      let rest = effect.takingSends(into: &sends)
      // Cancelling in flight is work of its own, even with nothing left to start.
      if rest.isNone, !cancelInFlight { return .none }
      return Effect(.cancellable(id, cancelInFlight: cancelInFlight, rest))
    }
  }
}
