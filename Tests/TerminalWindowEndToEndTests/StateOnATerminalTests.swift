import DaemonDriving
import Foundation
import Testing

/// `concord state` typed on a terminal: JSON indented for reading, one member a line; with
/// `--compact`, one line as when piped.
@Suite(.serialized) struct StateOnATerminalTests {
  @Test func stateIsIndentedOnATerminalAndCompactWhenAsked() throws {
    let daemon = try DaemonUnderTest(app: "workspace").start()
    defer {
      _ = daemon.terminate()
      daemon.removeHome()
    }
    _ = try ConcordCLI.run(["send", "board", "add Read by a person"], home: daemon.home, app: "workspace")
    let command = "CONCORD_APP=workspace CONCORD_HOME=\(daemon.home.path) \(ConcordCLI.binary.path)"
    let pretty = try Tmux(command: "\(command) state board", columns: 100, rows: 60)
    defer { pretty.kill() }
    try pretty.waitForScreen(containing: "EXITED 0")
    let screen = pretty.screen(of: "w")
    #expect(screen.contains("\n  \"columns\": [\n"), "\(screen)")
    #expect(screen.contains("\"title\": \"Read by a person\""), "\(screen)")

    let compact = try Tmux(command: "\(command) state board --compact", columns: 400, rows: 20)
    defer { compact.kill() }
    try compact.waitForScreen(containing: "EXITED 0")
    #expect(compact.screen(of: "w").contains(#"{"archived":0,"columns":[{"#), "\(compact.screen(of: "w"))")
  }
}
