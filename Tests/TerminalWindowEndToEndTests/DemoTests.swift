import DaemonDriving
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The README's main command, run as a new user would (without a terminal, so it leaves its
/// tmux session running), then read off the four windows' screens.
@Suite(.serialized) struct DemoTests {
  static let repository = Repository.root

  /// Runs `scripts/demo.sh ARGUMENTS` with this test's binaries, home and tmux server; its
  /// output goes to a file, since the daemon and the tmux server it starts outlive it.
  static func demo(_ arguments: [String], home: URL, server: String) throws -> (status: Int32, output: String) {
    let output = home.path + "-demo.out"
    defer { try? FileManager.default.removeItem(atPath: output) }
    let environment = ProcessInfo.processInfo.environment.merging([
      "CONCORD_HOME": home.path, "CONCORD_BIN": DaemonUnderTest.binary.deletingLastPathComponent().path,
      "CONCORD_DEMO_TMUX": server,
    ]) { $1 }
    return try Spawn.run(
      "/bin/bash", [repository.appending(path: "scripts/demo.sh").path] + arguments, environment: environment,
      output: .file(output))
  }

  @Test func theDemoShowsFourWindowsAndWhatIsTypedInOneAppearsInTheOthers() throws {
    let home = DaemonUnderTest.makeHome()
    let server = "concord-demo-\(UUID().uuidString.prefix(8))"
    let tmux = Tmux(server: server)
    defer {
      _ = try? Self.demo(["stop"], home: home, server: server)
      tmux.kill()
      try? FileManager.default.removeItem(at: home)
    }
    let first = try Self.demo([], home: home, server: server)
    #expect(first.status == 0, "\(first.output)")
    #expect(first.output.contains("tmux -L \(server) attach -t concord-demo"))

    let (board, card, chat, activity) = ("concord-demo:0.0", "concord-demo:0.1", "concord-demo:0.2", "concord-demo:0.3")
    try tmux.waitForPane(board, containing: ["todo (0)", "doing (1/3)", "done (0)", "#1 Try Concord", "help", "q to quit"])
    try tmux.waitForPane(card, containing: ["#1 Try Concord", "assignee", "connected"])
    try tmux.waitForPane(chat, containing: ["welcome!", "#1 «Try Concord"])
    try tmux.waitForPane(activity, containing: ["added #1 Try Concord"])

    // As the README's first session says: from the board, Ctrl-b ↓ goes to card 1.
    try tmux.run(["select-pane", "-t", board, "-D"], capture: false)
    #expect(try tmux.run(["display-message", "-p", "-t", "concord-demo", "#{pane_index}"]).trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    try tmux.run(["select-pane", "-t", board], capture: false)

    // help shows the board's words in place of the board, until the next line.
    try tmux.type("help", into: board)
    try tmux.waitForPane(board, containing: ["The words of board", #"add "TITLE" [to COLUMN]"#, "undo"])
    try tmux.type("", into: board)
    try tmux.waitForPane(board, containing: ["todo (0)"])

    // Typed in the board: the card shows up in the board and in the feed.
    try tmux.type(#"add "Fix login" to todo"#, into: board)
    try tmux.waitForPane(board, containing: ["#2 Fix login", "todo (1)"])
    try tmux.waitForPane(activity, containing: ["added #2 Fix login to todo"])
    // Typed in the card: the board shows its label.
    try tmux.type("label urgent", into: card)
    try tmux.waitForPane(board, containing: ["[urgent]"])
    // Typed in the chat: the link shows the card's title; the feed tells it.
    try tmux.type("see #2 please", into: chat)
    try tmux.waitForPane(chat, containing: ["see #2 «Fix login» please"])
    try tmux.waitForPane(activity, containing: ["in general: see #2 please"])

    // Running it again breaks nothing: the same daemon, the same board, no second first card.
    let second = try Self.demo([], home: home, server: server)
    #expect(second.status == 0, "\(second.output)")
    #expect(second.output.contains("already running"))
    try tmux.waitForPane(board, containing: ["#1 Try Concord", "#2 Fix login", "[urgent]", "connected"])
    #expect(!tmux.screen(of: board).contains("#3"))
  }
}
