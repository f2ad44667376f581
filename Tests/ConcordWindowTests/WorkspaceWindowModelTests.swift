import Concord
import ConcordApp
import ConcordClient
import ConcordWindow
import ConcordWire
import Foundation
import Testing
import Workspace
import WorkspaceWindows

/// Workspace's own windows in the window model: a board longer than the window pages, one wider
/// than it scrolls sideways, and a chat line that cannot be undone asks first.
@Suite struct WorkspaceWindowModelTests {
  static let app = Workspace.hosted()

  /// The JSON of `scope` once `actions` are taken, by Workspace's own reducer.
  static func scope(_ scope: String, after actions: [Workspace.Action]) throws -> JSONValue {
    var state = app.initialState
    for action in actions { Reduction.reduceWithFeedback(action, into: &state, reduce: app.reduceAdmitted, each: { _ in }) }
    return try app.scopeJSON(scope, of: state)
  }

  static func board(_ action: BoardAction) -> Workspace.Action {
    .board(Authored(user: "ann", at: Date(timeIntervalSince1970: 1_800_000_000), action))
  }

  static func window(_ name: String) -> WindowScope { Workspace.client.scope(named: name)! }

  /// Scrolled down a long board, the columns' names and counts stay on the first rows, as a
  /// spreadsheet keeps its first row: every row of cards is under its column's name.
  @Test func aScrolledBoardKeepsItsColumnHeadersInSight() throws {
    let board = try Self.scope(
      "board",
      after: (1...60).map { Self.board(.addCard(title: "Card \($0)", column: $0 % 3 == 0 ? "done" : "todo")) })
    var story = WindowStory(scope: "board", window: Self.window("board"), state: board, columns: 60, rows: 24)
    story.press(.pageDown)
    story.press(.pageDown)
    let rows = story.screenRows
    #expect(rows[1].contains("todo (40)") && rows[1].contains("doing (0/3)") && rows[1].contains("done (20)"), "\(rows)")
    #expect(rows[2].contains("────"), "\(rows)")
    #expect(!story.screen.contains("#1 Card 1 "), "scrolled past the first cards")
    #expect(rows[3].contains("#"), "cards follow the header: \(rows)")
    // The longest column's last card comes into view under the header; the top is as it was.
    story.press(.end)
    #expect(story.screen.contains("#59 Card 59") && story.screenRows[1].contains("todo (40)"), "\(story.screenRows)")
    story.press(.home)
    #expect(story.screenRows[1].contains("todo (40)") && story.screen.contains("#1 Card 1 "))
    // Each card is seen on some page exactly as PgDn walks the board: none is hidden under the header.
    var seen = Set<String>()
    story.press(.home)
    for _ in 0..<30 {
      for id in 1...60 where story.screen.contains("#\(id) Card \(id) ") || story.screen.contains("#\(id) Card \(id)\n") { seen.insert("\(id)") }
      story.press(.pageDown)
    }
    #expect(seen.count == 60, "never shown: \(Set((1...60).map(String.init)).subtracting(seen).sorted())")
  }

  /// In a narrow pane (the demo's card pane is 60 columns) nothing a person must read is cut:
  /// a mistake wraps onto the rows it needs, and every line of help fits the width.
  @Test func aNarrowPaneWrapsWhatMustBeReadWhole() throws {
    let card = try Self.scope("card:1", after: [Self.board(.addCard(title: "Fix login", column: nil))])
    var story = WindowStory(scope: "card:1", window: Self.window("card"), state: card, columns: 44, rows: 24)
    story.type("due blorp")
    let rows = story.screenRows
    let said = rows.filter { !$0.hasPrefix(" connected") && !$0.hasPrefix(">") }.suffix(4).joined(separator: " ")
      .split(separator: " ").joined(separator: " ")
    for words in ["\"blorp\" is not a date I can read", "dec 3, in 2h, 2026-12-01 09:30, or none", "(usage: due WHEN)"] {
      #expect(said.contains(words), "\(words) is cut: \(rows)")
    }
    #expect(rows.allSatisfy { DisplayWidth.of($0) <= 44 })

    var board = WindowStory(scope: "board", window: Self.window("board"), state: try Self.scope("board", after: []), columns: 60, rows: 80)
    board.type("help")
    #expect(!board.screenRows[0].contains("more right"), "\(board.screen)")
    #expect(board.screen.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains("assign a card to someone who joined"))
    #expect(board.screenRows.allSatisfy { DisplayWidth.of($0) <= 60 })
  }

  /// Tab's list belongs to the line: clearing the line puts it away. `#` and Tab among twelve
  /// cards lists them rather than taking #1 (a number shared by several reads as a choice
  /// made); the one card left is taken, and which it is is said.
  @Test func tabOffersCardsWithoutChoosingForThePerson() throws {
    let board = try Self.scope("board", after: (1...12).map { Self.board(.addCard(title: "Task \($0)", column: nil)) })
    var story = WindowStory(scope: "board", window: Self.window("board"), state: board, columns: 100, rows: 30)
    story.write("move #")
    story.press(.tab)
    #expect(story.model.editor.text == "move #", "Tab chose for the person: \(story.model.editor.text)")
    #expect(story.screen.contains("#1 Task 1  #2 Task 2"), "\(story.screen)")
    story.press(.control("u"))
    #expect(!story.screen.contains("#1 Task 1  #2 Task 2"), "the list stays after the line is cleared")
    story.write("move #12")
    story.press(.tab)
    #expect(story.model.editor.text == "move #12 ")
    #expect(story.screen.contains("#12 Task 12"), "which card was taken is said")
  }

  /// The chat's help says that a plain line is said, and how to say one that starts with `/`.
  @Test func theChatsHelpSaysWhatAPlainLineDoes() throws {
    let channel = try Self.scope("chat:general", after: [])
    var story = WindowStory(scope: "chat:general", window: Self.window("chat"), state: channel, columns: 100, rows: 60)
    story.type("help")
    let read = story.screen.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(read.contains("Any other line is said in the channel, as it is typed."), "\(story.screen)")
    #expect(read.contains("start it with // to say it (//shrug says /shrug)"), "\(story.screen)")
  }

  @Test func aBoardLongerThanTheWindowScrollsByPageByWheelAndToItsEnds() throws {
    let board = try Self.scope("board", after: (1...60).map { Self.board(.addCard(title: "Task \($0)", column: "todo")) })
    var story = WindowStory(scope: "board", window: Self.window("board"), state: board, columns: 100, rows: 30)
    #expect(story.screen.contains("#1 Task 1 "))
    #expect(story.screenRows[0].contains("more below (PgDn)"))
    #expect(!story.screen.contains("#60 Task 60"))
    for _ in 0..<4 { story.press(.pageDown) }
    #expect(story.screen.contains("#60 Task 60"))
    #expect(story.screenRows[0].contains("more above (PgUp)"))
    #expect(!story.screen.contains("#1 Task 1 "))
    story.press(.home)
    #expect(story.screen.contains("#1 Task 1 "))
    story.press(.end)
    #expect(story.screen.contains("#60 Task 60"))
    story.press(.pageUp)
    #expect(story.screenRows[0].contains("↑↓ PgUp/PgDn"))
  }

  @Test func aBoardWiderThanTheWindowScrollsSideways() throws {
    let board = try Self.scope(
      "board", after: [Self.board(.addCard(title: "First", column: "todo"))] + (4...9).map { Self.board(.addColumn(name: "extra\($0)", limit: nil)) })
    var story = WindowStory(scope: "board", window: Self.window("board"), state: board, columns: 60, rows: 20)
    #expect(story.screen.contains("#1 First"))
    #expect(story.screenRows[0].contains("more right (→)"))
    #expect(!story.screen.contains("extra9"))
    for _ in 0..<6 { story.press(.right) }
    #expect(story.screen.contains("extra9"))
    #expect(story.screenRows[0].contains("more left (←)"))
    #expect(!story.screen.contains("#1 First"))
    for _ in 0..<6 { story.press(.left) }
    #expect(story.screen.contains("#1 First"))
    // On a line being typed, ← and → move the cursor, not the board.
    story.write("abc")
    story.press(.right, .right, .left)
    #expect(story.screen.contains("#1 First"))
    #expect(story.screenRows.last == "> abc")
    #expect(story.model.editor.cursor == 2)
  }

  @Test func deletingAMessageCannotBeUndoneSoTheWindowAsksFirst() throws {
    let chat = try Self.scope(
      "chat:general", after: [.chat(Authored(user: "ann", at: Date(timeIntervalSince1970: 1_800_000_000), .say(channel: "general", text: "a message to keep")))])
    var story = WindowStory(scope: "chat:general", window: Self.window("chat"), state: chat, columns: 100)
    story.type("/delete 1")
    #expect(story.screen.contains("delete message 1 for good? y and Enter does it"))
    story.type("n")
    #expect(story.screen.contains("not done: /delete 1"))
    #expect(!story.commands.contains { if case .send = $0 { true } else { false } })
    story.type("/delete 1")
    story.type("y")
    guard case let .send(line, action)? = story.lastCommand else {
      Issue.record("y did not send it: \(story.commands)")
      return
    }
    #expect(line == "/delete 1")
    #expect(action == (try Self.window("chat").parse("/delete 1")))
  }
}
