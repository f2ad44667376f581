import DaemonDriving
import Foundation
import Testing

/// `concord inspect`, driven for real inside tmux as an auditor would: step through a Workspace
/// session entry by entry and see each change, filter by a person, jump to a seq, and leave an
/// entry out to see the refusals that would follow.
@Suite(.serialized) struct InspectorWindowTests {
  @Test func anAuditorStepsThroughASessionAndAsksWhatIf() throws {
    let daemon = try DaemonUnderTest(app: "workspace").start()
    let home = daemon.home
    defer {
      _ = daemon.terminate()
      daemon.removeHome()
    }
    // 1 is the daemon's boot; then alice (this account) works on the board.
    for (scope, words) in [("board", "add Fix login"), ("board", "move 1 doing"), ("board", "label 1 urgent"), ("chat:general", "done soon")] {
      let sent = try ConcordCLI.run(["send", scope, words], home: home, app: "workspace")
      try #require(sent.status == 0, "\(sent.error)")
    }
    let me = NSUserName()

    let tmux = try Tmux(command: "CONCORD_APP=workspace CONCORD_HOME=\(home.path) \(ConcordCLI.binary.path) inspect")
    defer { tmux.kill() }
    // It opens on the newest entry, in the app's words, and follows.
    try tmux.waitForScreen(containing: "in general: done soon", "following", "added #1 Fix login to todo")

    // A new entry appears while it follows.
    _ = try ConcordCLI.run(["send", "board", "add Write docs"], home: home, app: "workspace")
    try tmux.waitForScreen(containing: "added #2 Write docs to todo")

    // Step back to the move and see what it changed.
    try tmux.press("Up", "Up", "Up")
    try tmux.press("Enter")
    try tmux.waitForScreen(containing: "entry 3", "moved #1 Fix login from todo to doing", "What it changed in board:")
    // Escape and End at once (typed fast, or joined on the way through ssh): back to the
    // list, and following the newest entry again.
    try tmux.press("Escape", "End")
    try tmux.waitForScreen(containing: "↑↓ select", "following")

    // Only this person's entries: the daemon's boot is gone from the list.
    try tmux.press("/")
    try tmux.type("user=\(me)")
    try tmux.waitForScreen(containing: "filter: user=\(me)")
    try tmux.waitForScreen(without: "{\"booted\":{}}")

    // Jump to the add, and leave it out: the move and the label would have been refused.
    try tmux.press("g")
    try tmux.type("2")
    try tmux.press("x")
    try tmux.waitForScreen(containing: "Without entry 2", "would have been refused", "there is no card #1", timeout: 15)
    try tmux.press("Escape")

    try tmux.press("q")
    try tmux.waitUntilExited()
  }
}
