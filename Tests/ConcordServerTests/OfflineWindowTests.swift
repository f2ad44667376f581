import Foundation
import Testing

/// The offline walk, as a person does it in a real terminal (tmux): the daemon stops; what they
/// type shows at once, marked pending (◌), in their window and in one opened while offline;
/// the daemon comes back, and the marks go as the outbox replays. What the daemon refuses on
/// replay is shown in every window of the home until someone dismisses it.
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
    // same, for the daemon decides.
    try board.type("move 9 done")
    try board.waitForScreen(containing: "◌ #3 Offline card", "◌ #1 Write docs", "◌ #2 Fix login", "[urgent]", "◌ 4 pending")
    #expect(board.screen(of: "w").contains("likely be refused: there is no card #9"))
    // The move shows where it goes: #1 is in done, the last column, dimmed.
    #expect(Self.column(of: "#1 Write docs", in: board.screen(of: "w")) == 2)

    // A window opened while offline shows what waits, pending, too.
    let second = try TerminalWindowTests.window(daemon)
    defer { second.kill() }
    try second.waitForScreen(containing: "◌ #3 Offline card", "◌ #1 Write docs", "OFFLINE")

    daemon = try DaemonProcess(home: home, app: "workspace").start()
    for window in [board, second] {
      try window.waitForScreen(containing: "#3 Offline card", "connected", "0 waiting", timeout: 20)
      try window.waitForScreen(without: "◌ #")
      // Refused on replay: said in every window of the home, with the daemon's reason.
      try window.waitForScreen(containing: "✗ `move 9 done` (board, queued offline) was refused: there is no card #9")
    }
    #expect(Self.column(of: "#1 Write docs", in: board.screen(of: "w")) == 2)

    // Dismissed in one window, it goes from both.
    try second.type("/dismiss")
    for window in [board, second] { try window.waitForScreen(without: "move 9 done` (board") }
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
