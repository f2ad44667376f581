import DaemonDriving
import Foundation
import Testing

/// The board window as a newcomer uses it in the demo's panes (tmux): what it says after each
/// thing they type.
@Suite(.serialized) struct NewcomerBoardTests {
  static func board(columns: Int = 100, rows: Int = 30) throws -> (DaemonUnderTest, Tmux) {
    let daemon = try DaemonUnderTest(app: "workspace").start()
    let tmux = try Tmux(
      command: "env -u NO_COLOR CONCORD_APP=workspace CONCORD_HOME=\(daemon.home.path) \(ConcordCLI.binary.path) attach board",
      columns: columns, rows: rows)
    try tmux.waitForScreen(containing: "connected")
    return (daemon, tmux)
  }

  /// Undo and redo say which change they took back or put back, in the window and the feed.
  @Test func undoSaysWhatItUndid() throws {
    let (daemon, tmux) = try Self.board()
    defer {
      tmux.kill()
      _ = daemon.terminate()
      daemon.removeHome()
    }
    try tmux.type("add Fix login")
    try tmux.waitForScreen(containing: "added #1 Fix login to todo")
    try tmux.type("move 1 done")
    try tmux.waitForScreen(containing: "moved #1 Fix login to done")
    try tmux.type("undo")
    try tmux.waitForScreen(containing: "undid: moved #1 Fix login from todo to done")
    try tmux.type("redo")
    try tmux.waitForScreen(containing: "redid: moved #1 Fix login from todo to done")
    let feed = try ConcordCLI.run(["state", "activity"], home: daemon.home, app: "workspace")
    #expect(feed.output.contains("undid: moved #1 Fix login from todo to done"), "\(feed.output)")
    #expect(feed.output.contains("redid: moved #1 Fix login from todo to done"), "\(feed.output)")
  }

  /// In a demo-sized pane (60 columns), a board of 60 cards paged down keeps its columns' names
  /// and counts on top.
  @Test func aScrolledBoardKeepsItsColumnNames() throws {
    let (daemon, tmux) = try Self.board(columns: 60, rows: 24)
    defer {
      tmux.kill()
      _ = daemon.terminate()
      daemon.removeHome()
    }
    for index in 1...60 {
      let sent = try ConcordCLI.run(["send", "board", #"{"addCard":{"title":"Card \#(index)"}}"#], home: daemon.home, app: "workspace")
      try #require(sent.status == 0, "\(sent.error)")
    }
    try tmux.waitForScreen(containing: "todo (60)")
    try tmux.press("NPage")
    try tmux.press("NPage")
    try tmux.waitForScreen(containing: "↑↓ PgUp/PgDn")
    let rows = tmux.screen(of: "w").split(separator: "\n", omittingEmptySubsequences: false)
    #expect(rows.count > 3 && rows[1].contains("todo (60)") && rows[1].contains("doing (0/3)") && rows[2].contains("───"), "\(rows)")
    #expect(!rows.contains { $0.contains("#1 Card 1 ") }, "\(rows)")
  }

  /// In a demo-sized card pane (60 columns) a mistake is read whole: it wraps, and its end is
  /// on screen.
  @Test func aNarrowCardPaneShowsAMistakeWhole() throws {
    let daemon = try DaemonUnderTest(app: "workspace").start()
    defer {
      _ = daemon.terminate()
      daemon.removeHome()
    }
    _ = try ConcordCLI.run(["send", "board", "add Fix login"], home: daemon.home, app: "workspace")
    let card = try Tmux(
      command: "env -u NO_COLOR CONCORD_APP=workspace CONCORD_HOME=\(daemon.home.path) \(ConcordCLI.binary.path) attach card:1",
      columns: 60, rows: 24)
    defer { card.kill() }
    try card.waitForScreen(containing: "connected", "#1 Fix login")
    try card.type("due blorp")
    try card.waitForScreen(containing: "is not a date I can read", "2026-12-01 09:30, or none", "due WHEN)")
    #expect(!card.screen(of: "w").contains("…"), "\(card.screen(of: "w"))")
  }
}
