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
  public var feedback: [Action] { sent.all }
  /// The rest of the effect, to start later: it holds none of the `feedback`.
  public let work: Effect<Action>
  /// The feedback, kept without an array for none or one action: a lone `.send`, the common
  /// case, allocates nothing on its way to being reduced.
  @usableFromInline
  let sent: OneOrMany<Action>

  @inlinable
  init(action: Action, refusal: Refusal?, sent: OneOrMany<Action>, work: Effect<Action>) {
    self.action = action
    self.refusal = refusal
    self.sent = sent
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
    return Reduction(action, returned: effect, before: before, state: &state, check: check)
  }

  /// The step of `action` whose reducer returned `effect`, changing `state` from `before`: the
  /// state is put back when it is refused. For the store, which runs the reducer itself on its
  /// fastest path.
  @inlinable
  init<State>(
    _ action: Action, returned effect: Effect<Action>, before: State, state: inout State,
    check: ((_ before: State, _ after: State) -> Refusal?)? = nil
  ) {
    if effect.isNone, check == nil {
      self.init(action: action, refusal: nil, sent: .none, work: .none)
    } else if let refusal = effect.refusal ?? check?(before, state) {
      state = before
      self.init(action: action, refusal: refusal, sent: .none, work: .none)
    } else if case let .send(only) = effect.operation {
      // A lone send, the commonest feedback: no walk through the effect.
      self.init(action: action, refusal: nil, sent: .one(only), work: .none)
    } else {
      var sent = OneOrMany<Action>.none
      let work = effect.takingSends(into: &sent)
      self.init(action: action, refusal: nil, sent: sent, work: work)
    }
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
    reduceFeedback(of: first, into: &state, reduce: reduce, check: check, each: each)
    return first
  }

  /// How many actions one action may feed back, its chain's included. The action past it is
  /// refused, and what remains of the chain is dropped: a reducer that feeds back forever would
  /// otherwise hold its store (or the daemon's whole event loop) for good.
  public static var maximumFeedback: Int { 10_000 }

  /// Reduces what `step` fed back, breadth first, each by ``reduce(_:into:reduce:check:)``, and
  /// what those fed back in turn; `each` is called after every step, in order. At most
  /// ``maximumFeedback`` are reduced.
  @inlinable
  public static func reduceFeedback<State>(
    of step: Reduction, into state: inout State,
    reduce: (inout State, Action) -> Effect<Action>,
    check: ((_ before: State, _ after: State) -> Refusal?)? = nil,
    each: (Reduction) -> Void
  ) {
    if case .none = step.sent { return }
    var sent = step.sent
    var queue: [Action] = []
    var next = 0
    var reduced = 0
    while true {
      let action: Action
      switch sent {
      case let .one(only) where next == queue.count:
        // Nothing queued before it: reduce it now, no queue needed.
        action = only
      default:
        sent.forEach { queue.append($0) }
        guard next < queue.count else { return }
        action = queue[next]
        next += 1
      }
      guard reduced < maximumFeedback else {
        let reason = "more than \(maximumFeedback) actions were fed back by one action; the rest of its chain is dropped"
        each(Reduction(action: action, refusal: Refusal(reason), sent: .none, work: .none))
        return
      }
      reduced += 1
      let step = Reduction.reduce(action, into: &state, reduce: reduce, check: check)
      each(step)
      sent = step.sent
    }
  }
}

extension Effect {
  /// This effect without the actions it sends at once, which are appended to `sends` in the
  /// order a runtime meets them. Sends inside `.concatenate` or a queue stay: they run as tasks.
  ///
  /// An effect with no such send is returned as it is, not rebuilt: a `.run` marked cancellable
  /// or merged with a `.cancel`, the daemon's and the store's everyday work, costs one walk.
  @inlinable
  func takingSends(into sends: inout OneOrMany<Action>) -> Effect {
    guard sendsAtOnce else { return self }
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

  /// Whether this effect sends an action at once (a `.send` outside a concatenation or queue).
  @inlinable
  var sendsAtOnce: Bool {
    switch operation {
    case .none, .refuse, .run, .cancel, .concatenate, .queued: false
    case .send: true
    case let .merge(effects): effects.contains { $0.sendsAtOnce }
    case let .cancellable(_, _, effect): effect.sendsAtOnce
    }
  }
}
