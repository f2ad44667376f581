import Clocks
import ConcordTesting
import Foundation
import Testing

@testable import Workspace
@testable import WorkspaceWindows

/// Undo on a shared board: your own last change, and only while nobody changed the board since.
@Suite struct UndoTests {
  func store() -> TestStore<Workspace.State, Workspace.Action> {
    let store = Workspace.State.store(Workspace.State(board: .with(people: ["alice", "bob"])))
    store.exhaustivity = .off
    return store
  }

  var titles: (TestStore<Workspace.State, Workspace.Action>) -> [String] {
    { store in store.state.board.present.cards.filter { !$0.archived }.map(\.title) }
  }

  @Test func eachPersonUndoesTheirOwnLastChangeInTurn() async {
    let store = store()
    await store.send(.board("alice", .addCard(title: "Fix login", column: nil)))
    await store.send(.board("bob", .addCard(title: "Write docs", column: nil)))
    await store.send(
      .board("alice", .undo),
      refusedWith: "bob changed the board after your last change; undoing yours now would undo theirs too")
    await store.send(.board("bob", .undo))
    #expect(titles(store) == ["Fix login"])
    await store.send(.board("alice", .undo))
    #expect(titles(store) == [])
    await store.send(.board("alice", .undo), refusedWith: "there is nothing to undo")
    await store.send(.board("bob", .redo), refusedWith: "the change to redo is alice's, not yours")
    await store.send(.board("alice", .redo))
    await store.send(.board("bob", .redo))
    #expect(titles(store) == ["Fix login", "Write docs"])
    await store.send(.board("bob", .redo), refusedWith: "there is nothing to redo")
  }

  @Test func someoneWhoChangedNothingHasNothingToUndo() async {
    let store = store()
    await store.send(.board("alice", .addCard(title: "Fix login", column: nil)))
    await store.send(.board("bob", .undo), refusedWith: "you have no change to undo; the last one is alice's")
  }

  @Test func undoNeverTakesBackWhoJoinedNorReusesACardNumber() async {
    let store = store()
    await store.send(.board("alice", .addCard(title: "Fix login", column: nil)))
    await store.send(.opensWindow("carol"))
    await store.send(.board("alice", .invite(user: "dave")))
    await store.send(.board("alice", .undo))
    #expect(store.state.board.present.people == ["alice", "bob", "carol", "dave"])
    await store.send(.board("alice", .addCard(title: "Write docs", column: nil)))
    #expect(store.state.board.present.cards.map(\.id) == [2])
    #expect(store.state.activity.items.map(\.text).last == "added #2 Write docs to todo")
  }
}
