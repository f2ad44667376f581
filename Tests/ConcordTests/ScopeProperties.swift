import CasePaths
import Concord
import IdentifiedCollections
import PropertyRandom
import Testing

/// A feature that works through a scoped store — a counter panel, one row of a list, an editor
/// that may be closed — relies on the scope being only a view: sending through it is sending the
/// embedded action to the parent, refusals included, and what it shows is the parent's state
/// projected. Checked here against a twin store that is sent the embedded actions directly.
@Suite struct ScopeProperties {
  // MARK: The app: a counter (pullback), rows (forEach by id) and an editor (ifLet)

  struct Counter: Equatable, Sendable {
    var value = 0
    var bumps = 0
  }

  @CasePathable enum CounterAction: Equatable, Sendable {
    case add(Int)
    /// Adds one through an action fed back by the reduction.
    case bump
    case reset
  }

  struct Row: Equatable, Sendable, Identifiable {
    var id: Int
    var count = 0
    var tags: [String] = []
  }

  @CasePathable enum RowAction: Equatable, Sendable {
    case add(Int)
    /// Refused when it would go below zero.
    case take(Int)
    /// Refused when the row already has the tag.
    case tag(String)
    /// Feeds back `.add(count)`: the row doubles.
    case double
    /// Feeds back a `take` of more than the row holds: refused in the feedback.
    case overdraw
    /// Tags the row, then feeds back an overdraw: the tag stays, only the feedback is undone.
    case tagThenOverdraw(String)
  }

  struct Editor: Equatable, Sendable {
    var text = ""
  }

  @CasePathable enum EditorAction: Equatable, Sendable {
    case type(String)
    /// Refused when there is nothing to clear.
    case clear
  }

  struct Parent: Equatable, Sendable {
    var counter = Counter()
    var rows: IdentifiedArrayOf<Row> = []
    var editor: Editor?
    var nextID = 1
    /// What the parent saw of its children's actions, after them.
    var doubled = 0
  }

  @CasePathable enum ParentAction: Equatable, Sendable {
    case counter(CounterAction)
    case rows(IdentifiedAction<Int, RowAction>)
    case editor(EditorAction)
    case addRow
    case removeRow(Int)
    case openEditor
    case closeEditor
  }

  static let counter = Reducer<Counter, CounterAction, Void> { state, action, _ in
    switch action {
    case let .add(amount):
      guard state.value + amount >= 0 else { return .refuse("the counter cannot go below zero") }
      state.value += amount
    case .bump:
      state.bumps += 1
      return .send(.add(1))
    case .reset:
      guard state.value != 0 else { return .refuse("the counter is already at zero") }
      state.value = 0
    }
    return .none
  }

  static let row = Reducer<Row, RowAction, Void> { state, action, _ in
    switch action {
    case let .add(amount):
      state.count += amount
    case let .take(amount):
      guard state.count >= amount else { return .refuse("row \(state.id) holds only \(state.count)") }
      state.count -= amount
    case let .tag(tag):
      guard !state.tags.contains(tag) else { return .refuse("row \(state.id) is already tagged \(tag)") }
      state.tags.append(tag)
    case .double:
      return .send(.add(state.count))
    case .overdraw:
      return .send(.take(state.count + 1))
    case let .tagThenOverdraw(tag):
      guard !state.tags.contains(tag) else { return .refuse("row \(state.id) is already tagged \(tag)") }
      state.tags.append(tag)
      return .send(.take(state.count + 1))
    }
    return .none
  }

  static let editor = Reducer<Editor, EditorAction, Void> { state, action, _ in
    switch action {
    case let .type(text): state.text += text
    case .clear:
      guard !state.text.isEmpty else { return .refuse("nothing to clear") }
      state.text = ""
    }
    return .none
  }

  static let core = Reducer<Parent, ParentAction, Void> { state, action, _ in
    switch action {
    case .addRow:
      state.rows.append(Row(id: state.nextID))
      state.nextID += 1
    case let .removeRow(id):
      guard state.rows.remove(id: id) != nil else { return .refuse("there is no row \(id)") }
    case .openEditor:
      guard state.editor == nil else { return .refuse("the editor is already open") }
      state.editor = Editor()
    case .closeEditor:
      state.editor = nil
    case .rows(.element(_, .double)):
      state.doubled += 1
    case .counter, .rows, .editor:
      break
    }
    return .none
  }

  static let parent = Reducer<Parent, ParentAction, Void>.combine(
    counter.pullback(state: \Parent.counter, action: \ParentAction.AllCasePaths.counter, environment: { _ in () }),
    core
      .forEach(state: \.rows, action: \.rows, environment: { _ in () }, element: row)
      .ifLet(state: \.editor, action: \.editor, environment: { _ in () }, then: editor)
  )

  // MARK: The property

  /// One step of a session: a child action sent through a scope, or a parent action.
  enum Step: CustomStringConvertible {
    case counter(CounterAction)
    /// `nested`: through a scope of the rows' scope rather than straight from the store.
    case row(id: Int, RowAction, nested: Bool)
    case editor(EditorAction)
    case parent(ParentAction)

    var embedded: ParentAction {
      switch self {
      case let .counter(action): .counter(action)
      case let .row(id, action, _): .rows(.element(id: id, action: action))
      case let .editor(action): .editor(action)
      case let .parent(action): action
      }
    }

    var description: String {
      switch self {
      case let .row(_, _, nested): "\(embedded)\(nested ? " (nested scope)" : "")"
      default: "\(embedded)"
      }
    }
  }

  static func step(_ random: inout PropertyRandom, in state: Parent) -> Step {
    // Mostly rows that exist; sometimes one that was removed or never was.
    let id = !state.rows.isEmpty && random.chance(80) ? random.pick(Array(state.rows.ids)) : random.int(0...state.nextID + 1)
    switch random.int(0...19) {
    case 0...3:
      return .counter(random.pick([.add(random.int(-4...4)), .add(random.int(-4...4)), .bump, .reset]))
    case 4...11:
      let action: RowAction = random.pick([
        .add(random.int(0...5)), .take(random.int(0...6)), .tag(random.pick(["a", "b", "c"])), .double, .overdraw,
        .tagThenOverdraw(random.pick(["a", "b", "c"])),
      ])
      return .row(id: id, action, nested: random.chance(50))
    case 12...14:
      return .editor(random.pick([.type(random.pick(["x", "yz", ""])), .clear]))
    default:
      return .parent(random.pick([.addRow, .addRow, .removeRow(id), .openEditor, .closeEditor]))
    }
  }

  static func initialState(_ random: inout PropertyRandom) -> Parent {
    var state = Parent()
    state.counter.value = random.int(0...3)
    for _ in 0..<random.int(0...4) {
      state.rows.append(Row(id: state.nextID, count: random.int(0...3)))
      state.nextID += 1
    }
    if random.chance(50) { state.editor = Editor(text: random.pick(["", "draft"])) }
    return state
  }

  @Test func sendingThroughAScopeIsSendingTheEmbeddedActionToTheParent() async {
    var refusals = 0
    var steps = 0
    var missingRows = 0
    for seed in PropertyRandom.seeds(from: 0x5C0B_E000, count: 250) {
      var random = PropertyRandom(seed: seed)
      let initial = Self.initialState(&random)
      let scoped = Store(initialState: initial, reducer: Self.parent)
      let direct = Store(initialState: initial, reducer: Self.parent)
      let counterScope = scoped.scope(state: \.counter, action: \.counter)
      let rowsScope = scoped.scope(state: \.rows, action: \.rows)
      let editorScope = scoped.scope(state: \.editor, action: \.editor)
      var history: [String] = []

      for _ in 0..<random.int(10...50) {
        let step = Self.step(&random, in: await direct.state)
        history.append(step.description)
        let context: Comment = "seed \(seed), after \(history.joined(separator: ", "))"

        let throughScope: StoreTask
        let rowScope: ScopedStore<Row?, RowAction>?
        switch step {
        case let .counter(action):
          throughScope = await counterScope.send(action)
          rowScope = nil
        case let .row(id, action, nested):
          let scope =
            nested
            ? rowsScope.scope(state: { $0[id: id] }, action: { IdentifiedAction.element(id: id, action: $0) })
            : scoped.scope(state: { $0.rows[id: id] }, action: { ParentAction.rows(.element(id: id, action: $0)) })
          throughScope = await scope.send(action)
          rowScope = scope
          if await direct.state.rows[id: id] == nil { missingRows += 1 }
        case let .editor(action):
          throughScope = await editorScope.send(action)
          rowScope = nil
        case let .parent(action):
          throughScope = await scoped.send(action)
          rowScope = nil
        }
        let sentDirectly = await direct.send(step.embedded)
        steps += 1
        if sentDirectly.refusal != nil { refusals += 1 }

        // The same outcome, and the same parent state, whichever way the action went.
        #expect(throughScope.refusal == sentDirectly.refusal, context)
        let parentState = await scoped.state
        guard parentState == (await direct.state) else {
          Issue.record("the parent's states differ: \(parentState) and \(await direct.state); \(context)")
          break
        }
        // Every scope shows the projection of the parent's state.
        #expect(await counterScope.state == parentState.counter, context)
        #expect(await rowsScope.state == parentState.rows, context)
        #expect(await editorScope.state == parentState.editor, context)
        if case let .row(id, _, _) = step, let rowScope {
          #expect(await rowScope.state == parentState.rows[id: id], context)
        }
      }
    }
    // The sessions do reach refusals and rows that are not there.
    if PropertyRandom.replayed == nil {
      #expect(refusals > steps / 10)
      #expect(missingRows > 100)
    }
  }

  /// A refused action through any scope leaves the parent exactly as it was; a refusal that
  /// comes from an action the reduction fed back undoes that action alone.
  @Test func aRefusalThroughAScopeLeavesTheParentAsItWas() async {
    var refusals = 0
    var feedbackRefusals = 0
    for seed in PropertyRandom.seeds(from: 0x5C0B_F000, count: 150) {
      var random = PropertyRandom(seed: seed)
      let store = Store(initialState: Self.initialState(&random), reducer: Self.parent)
      for _ in 0..<random.int(10...40) {
        let before = await store.state
        let step = Self.step(&random, in: before)
        let task: StoreTask
        switch step {
        case let .counter(action): task = await store.scope(state: \.counter, action: \.counter).send(action)
        case let .row(id, action, _):
          task = await store.scope(state: { $0.rows[id: id] }, action: { .rows(.element(id: id, action: $0)) })
            .send(action)
        case let .editor(action): task = await store.scope(state: \.editor, action: \.editor).send(action)
        case let .parent(action): task = await store.send(action)
        }
        let after = await store.state
        if task.refusal != nil {
          refusals += 1
          #expect(after == before, "seed \(seed): \(step) was refused but changed the state")
        }
        // A refusal in the feedback undoes the feedback alone: an overdraw changes nothing, and
        // a tag given before the overdrawing feedback stays.
        if case let .row(id, action, _) = step, let row = before.rows[id: id] {
          switch action {
          case .overdraw:
            #expect(after == before, "seed \(seed): \(step)")
          case let .tagThenOverdraw(tag) where !row.tags.contains(tag):
            feedbackRefusals += 1
            var expected = before
            expected.rows[id: id]?.tags.append(tag)
            #expect(after == expected, "seed \(seed): \(step) should keep the tag and undo only the overdraw")
          default:
            break
          }
        }
      }
    }
    if PropertyRandom.replayed == nil {
      #expect(refusals > 200)
      #expect(feedbackRefusals > 50)
    }
  }
}
