import Concord
import ConcordTesting
import Foundation
import IdentifiedCollections
import Testing

@testable import Workspace
@testable import WorkspaceWindows

/// The board, told as what a team does with it.
@Suite struct BoardTests {
  func store(_ board: Board = .with(people: ["alice", "bob"])) -> TestStore<Board, Authored<BoardAction>> {
    TestStore(initialState: board, reducer: Board.reducer, environment: ())
  }

  @Test func aliceAddsCardsAndBobTakesOneThroughToDone() async {
    let store = store()
    await store.send(.by("alice", .addCard(title: "  Fix login ", column: nil))) {
      $0.cards.append(Card(id: 1, title: "Fix login", column: 1, by: "alice", at: monday))
      $0.columns[id: 1]?.cards = [1]
      $0.nextCardID = 2
      $0.lastEditor = "alice"
    }
    await store.send(.by("alice", .addCard(title: "Write docs", column: "Doing"))) {
      $0.cards.append(Card(id: 2, title: "Write docs", column: 2, by: "alice", at: monday))
      $0.columns[id: 2]?.cards = [2]
      $0.nextCardID = 3
    }
    let later = monday.addingTimeInterval(60)
    await store.send(.by("bob", .assign(id: 1, user: "bob"), at: later)) {
      $0.cards[id: 1]?.assignee = "bob"
      $0.cards[id: 1]?.updatedBy = "bob"
      $0.cards[id: 1]?.updatedAt = later
      $0.lastEditor = "bob"
    }
    await store.send(.by("bob", .moveCard(id: 1, column: "doing", position: 1), at: later)) {
      $0.columns[id: 1]?.cards = []
      $0.columns[id: 2]?.cards = [1, 2]
      $0.cards[id: 1]?.column = 2
      $0.cards[id: 1]?.moves = [CardMove(from: "todo", to: "doing", by: "bob", at: later)]
    }
    await store.send(.by("bob", .label(id: 1, label: "Bug"), at: later)) { $0.cards[id: 1]?.labels = ["bug"] }
    await store.send(.by("bob", .moveCard(id: 1, column: "done", position: nil), at: later)) {
      $0.columns[id: 2]?.cards = [2]
      $0.columns[id: 3]?.cards = [1]
      $0.cards[id: 1]?.column = 3
      $0.cards[id: 1]?.moves.append(CardMove(from: "doing", to: "done", by: "bob", at: later))
    }
    #expect(store.state.isDone(store.state.cards[id: 1]!))
    #expect(!store.state.isDone(store.state.cards[id: 2]!))
  }

  @Test func cardsAreEditedDatedArchivedAndRestored() async {
    var board = Board.with(people: ["alice"])
    board.cards = [Card(id: 1, title: "Fix login", column: 1, by: "alice", at: monday)]
    board.columns[id: 1]?.cards = [1]
    board.nextCardID = 2
    let store = store(board)
    let due = monday.addingTimeInterval(86_400)
    await store.send(.by("alice", .editCard(id: 1, title: "Fix the login", description: "It fails on Safari"))) {
      $0.cards[id: 1]?.title = "Fix the login"
      $0.cards[id: 1]?.description = "It fails on Safari"
      $0.lastEditor = "alice"
    }
    await store.send(.by("alice", .setDue(id: 1, due: due))) { $0.cards[id: 1]?.due = due }
    await store.send(.by("alice", .archive(id: 1))) {
      $0.cards[id: 1]?.archived = true
      $0.columns[id: 1]?.cards = []
    }
    await store.send(.by("alice", .editCard(id: 1, title: "Again", description: nil)), refusedWith: "#1 is archived; restore it before changing it")
    await store.send(.by("alice", .moveCard(id: 1, column: "done", position: nil)), refusedWith: "#1 is archived; restore it before moving it")
    await store.send(.by("alice", .archive(id: 1)), refusedWith: "#1 is already archived")
    await store.send(.by("alice", .restore(id: 1))) {
      $0.cards[id: 1]?.archived = false
      $0.columns[id: 1]?.cards = [1]
    }
    await store.send(.by("alice", .restore(id: 1)), refusedWith: "#1 is not archived")
    await store.send(.by("alice", .setDue(id: 1, due: nil))) { $0.cards[id: 1]?.due = nil }
    await store.send(.by("alice", .setDue(id: 1, due: nil)), refusedWith: "#1 has no due date")
  }

  @Test func columnsAreAddedRenamedReorderedLimitedAndRemoved() async {
    let store = store()
    await store.send(.by("alice", .addColumn(name: "review", limit: 2))) {
      $0.columns.append(Column(id: 4, name: "review", limit: 2))
      $0.nextColumnID = 5
      $0.lastEditor = "alice"
    }
    await store.send(.by("alice", .renameColumn(name: "REVIEW", to: "checking"))) { $0.columns[id: 4]?.name = "checking" }
    await store.send(.by("alice", .moveColumn(name: "checking", position: 3))) {
      $0.columns.move(fromOffsets: [3], toOffset: 2)
    }
    #expect(store.state.columns.map(\.name) == ["todo", "doing", "checking", "done"])
    await store.send(.by("alice", .limitColumn(name: "checking", limit: nil))) { $0.columns[id: 4]?.limit = nil }
    await store.send(.by("alice", .removeColumn(name: "checking"))) { $0.columns.remove(id: 4) }
  }

  @Test func everyMistakeIsRefusedInPlainWordsAndChangesNothing() async {
    var board = Board.with(people: ["alice"])
    board.cards = IdentifiedArray(uniqueElements: [1, 2, 3].map { Card(id: $0, title: "Card \($0)", column: 2, by: "alice", at: monday) })
    board.cards.append(Card(id: 4, title: "Card 4", column: 1, by: "alice", at: monday))
    board.columns[id: 2]?.cards = [1, 2, 3]
    board.columns[id: 1]?.cards = [4]
    board.nextCardID = 5
    let store = store(board)
    await store.send(.by("alice", .moveCard(id: 4, column: "doing", position: nil)), refusedWith: "doing is full: it holds 3 of at most 3 cards")
    await store.send(.by("alice", .addCard(title: "More", column: "doing")), refusedWith: "doing is full: it holds 3 of at most 3 cards")
    await store.send(.by("alice", .removeColumn(name: "doing")), refusedWith: "doing still holds 3 cards; move or archive them first")
    await store.send(
      .by("alice", .assign(id: 4, user: "zed")),
      refusedWith: "nobody called zed has joined this workspace; invite them first: `invite zed`")
    await store.send(.by("alice", .moveCard(id: 9, column: "done", position: nil)), refusedWith: "there is no card #9")
    await store.send(
      .by("alice", .moveCard(id: 4, column: "later", position: nil)),
      refusedWith: "there is no column \"later\"; the columns are todo, doing, done")
    await store.send(.by("alice", .moveCard(id: 4, column: "todo", position: nil)), refusedWith: "#4 is already there")
    await store.send(.by("alice", .moveCard(id: 4, column: "done", position: 3)), refusedWith: "done has room for positions 1 to 1, not 3")
    await store.send(.by("alice", .addCard(title: "   ", column: nil)), refusedWith: "a card needs a title")
    await store.send(
      .by("alice", .addCard(title: String(repeating: "x", count: 201), column: nil)),
      refusedWith: "a title is at most 200 characters; put the rest in the description")
    await store.send(.by("alice", .editCard(id: 4, title: nil, description: nil)), refusedWith: "say what to change: the title, the description or both")
    await store.send(.by("alice", .addColumn(name: "Todo", limit: nil)), refusedWith: "there is already a column todo")
    await store.send(.by("alice", .addColumn(name: "in review", limit: nil)), refusedWith: "a column's name is one word: letters, digits, - or _")
    await store.send(.by("alice", .addColumn(name: "review", limit: 0)), refusedWith: "a limit is at least 1 card")
    await store.send(
      .by("alice", .limitColumn(name: "doing", limit: 2)),
      refusedWith: "doing holds 3 cards, more than a limit of 2; move some out first")
    await store.send(.by("alice", .moveColumn(name: "done", position: 5)), refusedWith: "a column's position is 1 to 3, not 5")
    await store.send(.by("alice", .moveColumn(name: "done", position: 3)), refusedWith: "done is already at position 3")
    await store.send(.by("alice", .label(id: 4, label: "two words")), refusedWith: "a label is one word, such as bug")
    await store.send(.by("alice", .unlabel(id: 4, label: "bug")), refusedWith: "#4 has no label bug")
    await store.send(.by("alice", .assign(id: 4, user: nil)), refusedWith: "#4 is not assigned to anyone")
    await store.send(.by("alice", .invite(user: "alice")), refusedWith: "alice has already joined")
    await store.send(.by("alice", .join(user: "mallory")), refusedWith: "only mallory can join as mallory; invite them instead")
    await store.send(.by("alice", .undo), refusedWith: "undo and redo need the board's history")
  }

  @Test func someoneInvitedCanBeAssignedBeforeTheyJoin() async {
    let store = store(.with(people: ["alice"]))
    await store.send(.by("alice", .invite(user: "carol"))) { $0.people = ["alice", "carol"] }
    await store.send(.by("alice", .addCard(title: "Plan", column: nil))) {
      $0.cards.append(Card(id: 1, title: "Plan", column: 1, by: "alice", at: monday))
      $0.columns[id: 1]?.cards = [1]
      $0.nextCardID = 2
      $0.lastEditor = "alice"
    }
    await store.send(.by("alice", .assign(id: 1, user: "carol"))) { $0.cards[id: 1]?.assignee = "carol" }
    await store.send(.by("carol", .join(user: "carol")))
  }

  @Test func aPersonIsFoundAsPeopleTypeTheirName() async {
    let store = store(.with(people: ["alice", "bob"]))
    await store.send(.by("alice", .addCard(title: "Plan", column: nil))) {
      $0.cards.append(Card(id: 1, title: "Plan", column: 1, by: "alice", at: monday))
      $0.columns[id: 1]?.cards = [1]
      $0.nextCardID = 2
      $0.lastEditor = "alice"
    }
    await store.send(.by("alice", .assign(id: 1, user: "@Bob"))) { $0.cards[id: 1]?.assignee = "bob" }
    await store.send(.by("alice", .assign(id: 1, user: "ALICE"))) { $0.cards[id: 1]?.assignee = "alice" }
    await store.send(
      .by("alice", .assign(id: 1, user: "@zed")),
      refusedWith: "nobody called zed has joined this workspace; invite them first: `invite zed`")
  }

  @Test func theOtherMistakesAreRefusedToo() async {
    var board = Board(columns: [("todo", 1), ("done", nil)])
    board.people = ["alice", "bob"]
    var fix = Card(id: 1, title: "Fix login", column: 1, by: "alice", at: monday)
    fix.assignee = "bob"
    fix.labels = ["bug"]
    var old = Card(id: 2, title: "Old", column: 1, by: "alice", at: monday)
    old.archived = true
    board.cards = [fix, old]
    board.columns[id: 1]?.cards = [1]
    board.nextCardID = 3
    let store = store(board)
    await store.send(.by("alice", .editCard(id: 1, title: " ", description: nil)), refusedWith: "a card needs a title")
    await store.send(.by("alice", .assign(id: 1, user: "bob")), refusedWith: "#1 is already assigned to bob")
    await store.send(.by("alice", .label(id: 1, label: "BUG")), refusedWith: "#1 already has the label bug")
    await store.send(.by("alice", .archive(id: 7)), refusedWith: "there is no card #7")
    await store.send(.by("alice", .setDue(id: 7, due: monday)), refusedWith: "there is no card #7")
    await store.send(.by("alice", .restore(id: 2)), refusedWith: "todo is full: it holds 1 of at most 1 cards")
    await store.send(
      .by("alice", .renameColumn(name: "later", to: "soon")),
      refusedWith: "there is no column \"later\"; the columns are todo, done")
    await store.send(.by("alice", .renameColumn(name: "todo", to: "DONE")), refusedWith: "there is already a column done")
    await store.send(.by("alice", .limitColumn(name: "todo", limit: 0)), refusedWith: "a limit is at least 1 card")
    await store.send(.by("alice", .invite(user: "bob smith")), refusedWith: "a name is one word: letters, digits, - or _")
    await store.send(.by("alice", .removeColumn(name: "done")))  {
      $0.columns.remove(id: 2)
      $0.lastEditor = "alice"
    }
    await store.send(.by("alice", .archive(id: 1))) {
      $0.cards[id: 1]?.archived = true
      $0.columns[id: 1]?.cards = []
    }
    await store.send(.by("alice", .removeColumn(name: "todo")), refusedWith: "the board needs at least one column")
  }

  @Test func aBoardWithoutColumnsSaysHowToStart() async {
    let store = store(Board(columns: []))
    await store.send(
      .by("alice", .addCard(title: "First", column: nil)),
      refusedWith: "the board has no columns; add one first, such as `column add todo`")
  }
}
