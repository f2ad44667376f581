import DaemonDriving
import Foundation
import Testing

/// The offline walk, as a person does it in a real terminal (tmux): the daemon stops; what they
/// type shows at once, marked pending (◌), in their window and in one opened while offline;
/// the daemon comes back, and the marks go as the outbox is resent. What the daemon refuses
/// then is shown in every window of the home until someone dismisses it.
@Suite(.serialized) struct OfflineWindowTests {
  @Test func actionsTypedOfflineShowPendingAndAreConfirmedWhenTheDaemonIsBack() throws {
    var daemon = try TerminalWindowTests.board(with: ["Write docs", "Fix login"])
    let home = daemon.home
    defer { daemon.stopAndRemoveHome() }
    let board = try TerminalWindowTests.window(daemon)
    defer { board.kill() }
    try board.waitForScreen(containing: "#2 Fix login", "connected")
    #expect(!board.screen(of: "w").contains("◌"))

    _ = daemon.terminate()
    try board.waitForScreen(containing: "OFFLINE")
    try board.type("add Offline card")
    try board.type("move 1 done")
    try board.type("label 2 urgent")
    // A card that does not exist: the board's own reducer says so at once; it is queued all the
    // same, for the daemon decides. And one the daemon will refuse although it shows here: the
    // label is taken while offline in another way, below.
    try board.type("label 1 urgent")
    try board.type("move 9 done")
    try board.waitForScreen(containing: "◌ #3 Offline card", "◌ #1 Write docs", "◌ #2 Fix login", "[urgent]", "◌ 5 shown ahead of the daemon")
    #expect(board.screen(of: "w").contains("likely be refused: there is no card #9"))
    // The move shows where it goes: #1 is in done, the last column, dimmed.
    #expect(Self.column(of: "#1 Write docs", in: board.screen(of: "w")) == 2)

    // A window opened while offline shows what waits, pending, too.
    let second = try TerminalWindowTests.window(daemon)
    defer { second.kill() }
    try second.waitForScreen(containing: "◌ #3 Offline card", "◌ #1 Write docs", "OFFLINE")
    #expect(!second.screen(of: "w").contains(" ? "), "a window opened offline knows whose it is")
    // The same label again, from the other window: the daemon takes the first and refuses this.
    try second.type("label 1 urgent")

    daemon = try DaemonUnderTest(home: home, app: "workspace").start()
    for window in [board, second] {
      try window.waitForScreen(containing: "#3 Offline card", "connected", "all sent", timeout: 20)
      try window.waitForScreen(without: "◌ #")
      // Refused when resent: said in every window of the home, with the daemon's reason, the
      // oldest first.
      try window.waitForScreen(containing: "(1 of 2) ✗ board: `move 9 done` was refused on replay: there is no card #9")
      // The notice that it was queued is old news once the daemon is back.
      try window.waitForScreen(without: "queued while offline")
    }
    #expect(Self.column(of: "#1 Write docs", in: board.screen(of: "w")) == 2)

    // Dismissed in one window, it goes from both, and the next shows.
    try second.type("/dismiss")
    for window in [board, second] {
      try window.waitForScreen(containing: "✗ board: `label 1 urgent` was refused on replay: #1 already has the label urgent")
      #expect(!window.screen(of: "w").contains("1 of"))
    }
    try board.type("/dismiss")
    for window in [board, second] { try window.waitForScreen(without: "refused on replay") }
  }

  /// Which column (0, 1, 2 from the left) of the board shows `text`.
  static func column(of text: String, in screen: String) -> Int? {
    for line in screen.split(separator: "\n") {
      guard let range = line.range(of: text) else { continue }
      return line[..<range.lowerBound].components(separatedBy: "│").count - 1
    }
    return nil
  }
}
