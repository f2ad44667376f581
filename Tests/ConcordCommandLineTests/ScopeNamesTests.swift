import ConcordClient
import ConcordLog
import ConcordPlatform
import DaemonDriving
import Foundation
import Testing

/// A person is shown one spelling of each scope — `column:NAME`, `card:ID`, `chat:NAME` — by
/// every command's help, every error that lists or names scopes, and the daemon's welcome.
@Suite struct ScopeNamesTests {
  static let workspaceScopes = ["board", "column:NAME", "card:ID", "chat:NAME", "presence", "activity"]

  @Test func helpErrorsAndTheWelcomeSpellTheScopesAlike() throws {
    let daemon = try DaemonUnderTest(app: "workspace").start()
    let listed = Self.workspaceScopes.joined(separator: ", ")
    for command in ["state", "send", "attach"] {
      let help = try ConcordCLI.run([command, "--help"], home: daemon.home, app: "workspace")
      // Help text is wrapped: compare it with its line breaks taken out.
      let text = help.output.split(separator: "\n").joined(separator: " ")
      #expect(text.contains("The scopes: \(listed)."), "\(command) --help: \(help.output)")
    }
    let unknown = try ConcordCLI.run(["send", "nosuch", "x"], home: daemon.home, app: "workspace")
    #expect(unknown.status == 2 && unknown.error.contains("the scopes are \(listed)"), "\(unknown.error)")
    let unnamed = try ConcordCLI.run(["state", "card"], home: daemon.home, app: "workspace")
    #expect(unnamed.status != 0 && unnamed.error.contains("card:ID"), "\(unnamed.error)")

    let connection = try ClientConnection(socket: ConcordHome(daemon.home).socket, presence: false)
    defer { connection.close() }
    #expect(connection.welcome.scopes.map(\.usage) == Self.workspaceScopes.map { Optional($0) })
  }
}
