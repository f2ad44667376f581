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
}
