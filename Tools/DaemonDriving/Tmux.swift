import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A tmux server of its own, with one window running `command`.
public struct Tmux {
  public let socket: String

  public init(command: String, columns: Int = 100, rows: Int = 30) throws {
    socket = "concord-test-\(UUID().uuidString.prefix(8))"
    // No pipe for the first command: the tmux server it starts would hold it open forever.
    try run(
      ["new-session", "-d", "-s", "w", "-x", "\(columns)", "-y", "\(rows)", "bash -c '\(command); echo EXITED $?; sleep 30'"],
      capture: false)
  }

  /// The tmux server on `socket`, started by someone else (`tmux -L socket`).
  public init(server socket: String) {
    self.socket = socket
  }

  @discardableResult
  public func run(_ arguments: [String], capture: Bool = true) throws -> String {
    try Spawn.run("/usr/bin/tmux", ["-L", socket] + arguments, output: capture ? .capture : .discard).output
  }


  /// What the pane `target` (such as `concord-demo:0.1`) shows.
  public func screen(of target: String) -> String { (try? run(["capture-pane", "-p", "-t", target])) ?? "" }

  public func type(_ text: String, into target: String = "w") throws {
    try run(["send-keys", "-t", target, "-l", text], capture: false)
    try run(["send-keys", "-t", target, "Enter"], capture: false)
  }

  /// Presses keys by tmux's names (`NPage`, `Up`, `C-a`, `Enter`), without typing them as text.
  public func press(_ keys: String..., into target: String = "w") throws {
    try run(["send-keys", "-t", target] + keys, capture: false)
  }

  /// Types `text` without pressing Enter.
  public func write(_ text: String, into target: String = "w") throws {
    try run(["send-keys", "-t", target, "-l", text], capture: false)
  }

  /// The pane's text with its escape codes (colours, attributes).
  public func styledScreen(of target: String = "w") -> String { (try? run(["capture-pane", "-p", "-e", "-t", target])) ?? "" }

  public func waitForScreen(without needle: String, timeout: Double = 10) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if !screen(of: "w").contains(needle) { return }
      usleep(50_000)
    }
    throw DriveError("w still shows \(needle):\n\(screen(of: "w"))")
  }

  public func waitForScreen(containing needles: String..., timeout: Double = 10) throws {
    try waitForPane("w", containing: needles, timeout: timeout)
  }

  public func waitForPane(_ target: String, containing needles: [String], timeout: Double = 10) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      let text = screen(of: target)
      if needles.allSatisfy(text.contains) { return }
      usleep(50_000)
    }
    throw DriveError("\(target) never showed \(needles):\n\(screen(of: target))")
  }

  public func waitUntilExited() throws {
    try waitForScreen(containing: "EXITED 0")
  }

  /// Kills the windows' programs, then the server.
  public func kill() {
    let panes = (try? run(["list-panes", "-a", "-F", "#{pane_pid}"])) ?? ""
    for pid in panes.split(separator: "\n").compactMap({ pid_t($0) }) { Glibc.kill(pid, SIGKILL) }
    _ = try? run(["kill-server"], capture: false)
  }
}
