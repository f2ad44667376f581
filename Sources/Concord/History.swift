/// A state with the steps that led to it: the value of ``Reducer/history(maxDepth:records:keeping:)``.
///
/// `past` holds earlier states (oldest first), `future` the states undone (nearest first).
/// `timeline` lists them all in order; ``HistoryAction/jump(to:)`` moves to any of them.
public struct History<State> {
  /// The state now.
  public internal(set) var present: State
  /// Earlier states, oldest first.
  public internal(set) var past: [State]
  /// Undone states, the next one to redo first.
  public internal(set) var future: [State]
  /// How many past states are kept; the oldest are forgotten beyond it.
  public let maxDepth: Int

  /// A history that starts at `present`, with nothing to undo or redo.
  ///
  /// - Parameters:
  ///   - present: the first state.
  ///   - maxDepth: how many past states to keep (at least 1).
  public init(_ present: State, maxDepth: Int = 100) {
    self.present = present
    self.past = []
    self.future = []
    self.maxDepth = max(1, maxDepth)
  }

  /// Every kept state in order: the past, the present, then the future.
  public var timeline: [State] { past + [present] + future }
  /// Where the present is in ``timeline``.
  public var currentStep: Int { past.count }
  /// True when there is a past state to undo to (what an Undo button's enabled state reads).
  public var canUndo: Bool { !past.isEmpty }
  /// True when an undone state waits to be redone.
  public var canRedo: Bool { !future.isEmpty }

  /// Changes the present where it stands, as no step of its own: for what is learned about the
  /// present once it is recorded, such as the words of the change that made it. Undo and redo
  /// then carry it with the state it belongs to.
  ///
  /// ```swift
  /// history.amendPresent { $0.lastChange = "moved #2 to done" }
  /// ```
  ///
  /// - Parameter amend: the change, made to the present in place.
  public mutating func amendPresent(_ amend: (inout State) -> Void) {
    amend(&present)
  }

  mutating func record(_ next: State) {
    past.append(present)
    if past.count > maxDepth { past.removeFirst(past.count - maxDepth) }
    present = next
    future.removeAll()
  }
}

extension History: Equatable where State: Equatable {}
extension History: Hashable where State: Hashable {}
extension History: Sendable where State: Sendable {}
extension History: Codable where State: Codable {}

/// The actions of a reducer with history: the reducer's own actions, and moves through time.
public enum HistoryAction<Action: Sendable>: Sendable {
  /// An action of the underlying reducer.
  case action(Action)
  /// Back one step.
  case undo
  /// Forward one step.
  case redo
  /// To the step at this index of ``History/timeline``.
  case jump(to: Int)
}

extension HistoryAction: Equatable where Action: Equatable {}
extension HistoryAction: Hashable where Action: Hashable {}
extension HistoryAction: Codable where Action: Codable {}

extension Reducer {
  /// This reducer with undo, redo and jump-to-step (time travel), keeping at most `maxDepth` past
  /// states.
  ///
  /// Each applied action for which `records` is true becomes a step; other actions change the
  /// present without one. Undoing with nothing to undo, redoing with nothing to redo, or jumping
  /// outside the timeline is refused. Moving through time runs no effects.
  ///
  /// `keeping` names what time travel must not rewind — an id counter, the people who joined —
  /// by copying it from the present into the state travelled to: `keeping(&arrived, present)`.
  /// Without it, undo returns the whole state as it was.
  ///
  /// ```swift
  /// let editor = text.history(maxDepth: 50)
  /// let store = Store(initialState: History(Text()), reducer: editor, environment: ())
  /// await store.send(.action(.type("hello")))
  /// await store.send(.undo)
  /// ```
  public func history(
    maxDepth: Int = 100,
    records: @escaping @Sendable (Action) -> Bool = { _ in true },
    keeping: (@Sendable (_ arrived: inout State, _ present: State) -> Void)? = nil
  ) -> Reducer<History<State>, HistoryAction<Action>, Environment> {
    let run = self.run
    return Reducer<History<State>, HistoryAction<Action>, Environment> { history, action, environment in
      let present = history.present
      switch action {
      case let .action(action):
        var next = history.present
        let effect = run(&next, action, environment)
        if effect.refusal != nil { return effect.map { .action($0) } }
        if records(action) {
          history.record(next)
        } else {
          history.present = next
        }
        return effect.map { .action($0) }
      case .undo:
        guard let previous = history.past.popLast() else { return .refuse("Nothing to undo") }
        history.future.insert(history.present, at: 0)
        history.present = previous
        keeping?(&history.present, present)
        return .none
      case .redo:
        guard !history.future.isEmpty else { return .refuse("Nothing to redo") }
        history.past.append(history.present)
        history.present = history.future.removeFirst()
        keeping?(&history.present, present)
        return .none
      case let .jump(to: step):
        let timeline = history.timeline
        guard timeline.indices.contains(step) else {
          return .refuse("There is no step \(step); the history has steps 0 to \(timeline.count - 1)")
        }
        history.past = Array(timeline[..<step])
        history.present = timeline[step]
        history.future = Array(timeline[(step + 1)...])
        keeping?(&history.present, present)
        return .none
      }
    }
  }
}
