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
    try tmux.waitForScreen(containing: "Count: 5", "all sent")

    // The daemon dies: the window says OFFLINE, queues what is typed and shows it applied.
    daemon.kill9()
    try tmux.waitForScreen(containing: "OFFLINE")
    try tmux.type("add 10")
    try tmux.waitForScreen(containing: "Count: 15", "OFFLINE", "1 to send")

    // The daemon is back: the window reconnects, sends the queue, and shows the daemon's state.
    daemon = try DaemonUnderTest(home: home).start()
    try tmux.waitForScreen(containing: "Count: 15", "connected", "all sent", timeout: 20)
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
