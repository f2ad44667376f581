import Concord
import Testing

@Suite struct HistoryTests {
  enum Edit: Equatable, Sendable { case type(String), select }

  static let text = Reducer<String, Edit, Void> { text, action, _ in
    switch action {
    case let .type(more):
      guard !more.isEmpty else { return .refuse("Nothing typed") }
      text += more
    case .select:
      break
    }
    return .none
  }

  static func store(maxDepth: Int = 10) -> Store<History<String>, HistoryAction<Edit>> {
    Store(
      initialState: History("", maxDepth: maxDepth),
      reducer: text.history(maxDepth: maxDepth) { $0 != .select })
  }

  @Test func undoAndRedoWalkTheSteps() async {
    let store = Self.store()
    await store.send(.action(.type("a")))
    await store.send(.action(.type("b")))
    await store.send(.undo)
    #expect(await store.state.present == "a")
    await store.send(.redo)
    #expect(await store.state.present == "ab")
    await store.send(.undo)
    await store.send(.undo)
    #expect(await store.state.present == "")
    #expect(await store.state.future == ["a", "ab"])
  }

  /// What is learned about the present once recorded stays with that state: undo leaves it in
  /// the future, redo brings it back, and it is no step of its own.
  @Test func anAmendedPresentTravelsWithItsState() {
    var history = History("a")
    history.amendPresent { $0 += "!" }
    #expect(history.timeline == ["a!"] && !history.canUndo)
    let reducer = Self.text.history(maxDepth: 10) { $0 != .select }
    _ = reducer.reduce(into: &history, action: .action(.type("b")), environment: ())
    history.amendPresent { $0 += "?" }
    #expect(history.timeline == ["a!", "a!b?"])
    _ = reducer.reduce(into: &history, action: .undo, environment: ())
    #expect(history.present == "a!" && history.future == ["a!b?"])
    _ = reducer.reduce(into: &history, action: .redo, environment: ())
    #expect(history.present == "a!b?")
  }

  @Test func aNewActionAfterUndoDropsTheRedoSteps() async {
    let store = Self.store()
    await store.send(.action(.type("a")))
    await store.send(.undo)
    await store.send(.action(.type("z")))
    #expect(await store.state.timeline == ["", "z"])
    #expect(await store.send(.redo).refusal == "Nothing to redo")
  }

  @Test func jumpTravelsToAnyStep() async {
    let store = Self.store()
    for letter in ["a", "b", "c"] { await store.send(.action(.type(letter))) }
    await store.send(.jump(to: 1))
    #expect(await store.state.present == "a")
    #expect(await store.state.currentStep == 1)
    await store.send(.jump(to: 3))
    #expect(await store.state.present == "abc")
    #expect(await store.send(.jump(to: 9)).refusal == "There is no step 9; the history has steps 0 to 3")
  }

  @Test func depthIsBounded() async {
    let store = Self.store(maxDepth: 2)
    for letter in ["a", "b", "c", "d"] { await store.send(.action(.type(letter))) }
    #expect(await store.state.past == ["ab", "abc"])
    await store.send(.undo)
    await store.send(.undo)
    #expect(await store.send(.undo).refusal == "Nothing to undo")
    #expect(await store.state.present == "ab")
  }

  @Test func unrecordedAndRefusedActionsMakeNoStep() async {
    let store = Self.store()
    await store.send(.action(.type("a")))
    await store.send(.action(.select))
    #expect(await store.send(.action(.type(""))).refusal == "Nothing typed")
    #expect(await store.state.timeline == ["", "a"])
  }

  /// A document whose id counter must never go back, even when its text does.
  struct Document: Equatable, Sendable {
    var text = ""
    var nextID = 1
  }

  @Test func keptPartsOfTheStateAreNotRewoundByTimeTravel() async {
    let typing = Reducer<Document, Edit, Void> { document, action, _ in
      guard case let .type(more) = action else { return .none }
      document.text += more
      document.nextID += 1
      return .none
    }
    let store = Store(
      initialState: History(Document()),
      reducer: typing.history(keeping: { arrived, present in arrived.nextID = present.nextID }))
    await store.send(.action(.type("a")))
    await store.send(.action(.type("b")))
    await store.send(.undo)
    await store.send(.undo)
    #expect(await store.state.present == Document(text: "", nextID: 3))
    await store.send(.redo)
    #expect(await store.state.present == Document(text: "a", nextID: 3))
    await store.send(.jump(to: 0))
    #expect(await store.state.present == Document(text: "", nextID: 3))
    await store.send(.jump(to: 1))
    #expect(await store.state.present == Document(text: "a", nextID: 3))
  }
}
