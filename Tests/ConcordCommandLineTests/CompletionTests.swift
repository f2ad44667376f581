import DaemonDriving
import Foundation
import Testing

/// Tab in bash completes what `concord` takes: every flag, and the scope names — the running
/// daemon's when there is one, else the bundled app's. Driven through the script that
/// `concord --generate-completion-script bash` prints, in a real bash.
@Suite struct CompletionTests {
  @Test func scopesAndFlagsCompleteFromTheDaemonOrTheApp() throws {
    let home = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: home) }
    // No daemon: the bundled app's scopes (Workspace), a parameterized one up to its colon.
    #expect(try Self.complete("concord attach c", home: home, app: "workspace") == ["column:", "card:", "chat:"])
    #expect(try Self.complete("concord send ", home: home, app: "workspace").contains("board"))
    #expect(try Self.complete("concord log export --s", home: home, app: "workspace") == ["--scope"])

    // A daemon hosting the sample app: its scopes, whatever the client's app would say.
    let daemon = try DaemonUnderTest(home: home).start()
    defer { _ = daemon.terminate() }
    #expect(try Self.complete("concord state n", home: home, app: "workspace") == ["notes", "note:"])
    #expect(try Self.complete("concord log export --scope c", home: home, app: "workspace") == ["counter"])

    // The daemon of the home the command line names, whatever CONCORD_HOME says.
    let elsewhere = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: elsewhere) }
    #expect(try Self.complete("concord state --home \(home.path) n", home: elsewhere, app: "workspace") == ["notes", "note:"])
    #expect(try Self.complete("concord state --home=\(home.path) n", home: elsewhere, app: "workspace") == ["notes", "note:"])
    #expect(try Self.complete("concord state n", home: elsewhere, app: "workspace") == [])
  }

  /// The candidates bash offers for `line`, completed at its end.
  static func complete(_ line: String, home: URL, app: String) throws -> [String] {
    let script = try ConcordCLI.run(["--generate-completion-script", "bash"], home: home, app: app)
    try #require(script.status == 0)
    let scriptFile = home.appending(path: "completion.bash")
    try Data(script.output.utf8).write(to: scriptFile)
    let driver = """
      source "$1"
      COMP_LINE="$2"; COMP_POINT=${#COMP_LINE}
      read -ra COMP_WORDS <<< "$COMP_LINE"
      [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
      COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
      COMPREPLY=()
      _concord "${COMP_WORDS[0]}" "${COMP_WORDS[$COMP_CWORD]}" "${COMP_WORDS[$((COMP_CWORD-1))]}"
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    var environment = ConcordCLI.environment(home: home, app: app)
    environment["PATH"] = ConcordCLI.binary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    let bash = try ConcordCLI.runProgram(
      URL(filePath: "/bin/bash"), ["-c", driver, "driver", scriptFile.path, line], environment: environment)
    return bash.output.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
  }
}
