import DaemonDriving
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The full-screen `concord attach`, driven for real inside tmux and read off its screen.
@Suite(.serialized) struct FullScreenWindowTests {
  @Test func theWindowFollowsTheDaemonGoesOfflineAndConverges() throws {
    var daemon = try DaemonUnderTest().start()
    let home = daemon.home
    defer {
      _ = daemon.terminate()
      daemon.removeHome()
    }
    let tmux = try Tmux(command: "CONCORD_APP=sample CONCORD_HOME=\(home.path) \(ConcordCLI.binary.path) attach counter")
    defer { tmux.kill() }
    try tmux.waitForScreen(containing: "Count: 0", "connected")

    // An action from elsewhere shows up in the window.
    try ConcordCLI.run(["send", "counter", "add 5"], home: home)
    try tmux.waitForScreen(containing: "Count: 5")

    // An action typed in the window itself.
    try tmux.type("inc")
    try tmux.waitForScreen(containing: "Count: 6")
    try tmux.type("dec")
    try tmux.type("fly")
    try tmux.waitForScreen(containing: "Count: 5", "no command \"fly\"")
    // Shown at once, answered a moment later: on a loaded machine `dec` can still wait for its
    // commit here, and would be a second action waiting once the daemon is gone.
    try tmux.waitForScreen(containing: "Count: 5", "0 waiting")

    // The daemon dies: the window says OFFLINE, queues what is typed and shows it applied.
    daemon.kill9()
    try tmux.waitForScreen(containing: "OFFLINE")
    try tmux.type("add 10")
    try tmux.waitForScreen(containing: "Count: 15", "OFFLINE", "1 waiting")

    // The daemon is back: the window reconnects, sends the queue, and shows the daemon's state.
    daemon = try DaemonUnderTest(home: home).start()
    try tmux.waitForScreen(containing: "Count: 15", "connected", "0 waiting", timeout: 20)
    let state = try ConcordCLI.run(["state", "counter"], home: home)
    #expect(state.output.trimmingCharacters(in: .whitespacesAndNewlines) == "15")

    // A line that starts with q is a line like any other; q alone leaves, and the terminal is
    // put back as it was.
    try tmux.type("quick")
    try tmux.waitForScreen(containing: "no command \"quick\"")
    try tmux.type("q")
    try tmux.waitUntilExited()
  }
}

/// A tmux server of its own, with one window running `command`.
struct Tmux {
  let socket: String

  init(command: String, columns: Int = 100, rows: Int = 30) throws {
    socket = "concord-test-\(UUID().uuidString.prefix(8))"
    // No pipe for the first command: the tmux server it starts would hold it open forever.
    try run(
      ["new-session", "-d", "-s", "w", "-x", "\(columns)", "-y", "\(rows)", "bash -c '\(command); echo EXITED $?; sleep 30'"],
      capture: false)
  }

  /// The tmux server on `socket`, started by someone else (`tmux -L socket`).
  init(server socket: String) {
    self.socket = socket
  }

  @discardableResult
  func run(_ arguments: [String], capture: Bool = true) throws -> String {
    try Spawn.run("/usr/bin/tmux", ["-L", socket] + arguments, output: capture ? .capture : .discard).output
  }


  /// What the pane `target` (such as `concord-demo:0.1`) shows.
  func screen(of target: String) -> String { (try? run(["capture-pane", "-p", "-t", target])) ?? "" }

  func type(_ text: String, into target: String = "w") throws {
    try run(["send-keys", "-t", target, "-l", text], capture: false)
    try run(["send-keys", "-t", target, "Enter"], capture: false)
  }

  /// Presses keys by tmux's names (`NPage`, `Up`, `C-a`, `Enter`), without typing them as text.
  func press(_ keys: String..., into target: String = "w") throws {
    try run(["send-keys", "-t", target] + keys, capture: false)
  }

  /// Types `text` without pressing Enter.
  func write(_ text: String, into target: String = "w") throws {
    try run(["send-keys", "-t", target, "-l", text], capture: false)
  }

  /// The pane's text with its escape codes (colours, attributes).
  func styledScreen(of target: String = "w") -> String { (try? run(["capture-pane", "-p", "-e", "-t", target])) ?? "" }

  func waitForScreen(without needle: String, timeout: Double = 10) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if !screen(of: "w").contains(needle) { return }
      usleep(50_000)
    }
    throw DriveError("w still shows \(needle):\n\(screen(of: "w"))")
  }

  func waitForScreen(containing needles: String..., timeout: Double = 10) throws {
    try waitForPane("w", containing: needles, timeout: timeout)
  }

  func waitForPane(_ target: String, containing needles: [String], timeout: Double = 10) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      let text = screen(of: target)
      if needles.allSatisfy(text.contains) { return }
      usleep(50_000)
    }
    throw DriveError("\(target) never showed \(needles):\n\(screen(of: target))")
  }

  func waitUntilExited() throws {
    try waitForScreen(containing: "EXITED 0")
  }

  /// Kills the windows' programs, then the server.
  func kill() {
    let panes = (try? run(["list-panes", "-a", "-F", "#{pane_pid}"])) ?? ""
    for pid in panes.split(separator: "\n").compactMap({ pid_t($0) }) { Glibc.kill(pid, SIGKILL) }
    _ = try? run(["kill-server"], capture: false)
  }
}
