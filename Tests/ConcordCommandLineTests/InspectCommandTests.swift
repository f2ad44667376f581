import DaemonDriving
import Foundation
import Testing

/// `concord inspect` as an auditor uses it from a script: filters that combine, an entry's
/// change, clear errors, and a selection that leaves as evidence the independent verifier takes.
@Suite struct InspectCommandTests {
  /// A Workspace log where two people worked: alice (this account) and the daemon's own.
  static func workspaceDaemon() throws -> DaemonUnderTest {
    let daemon = try DaemonUnderTest(app: "workspace").start()
    for (scope, words) in [
      ("board", "add Fix login"), ("board", "add Write docs"), ("board", "move 1 doing"), ("board", "move 9 done"),
      ("card:2", "label urgent"), ("chat:general", "hello"),
    ] {
      _ = try ConcordCLI.run(["send", scope, words], home: daemon.home, app: "workspace")
    }
    return daemon
  }

  static func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

  @Test func filtersCombineAndSayWhatEachEntryDid() throws {
    let daemon = try Self.workspaceDaemon()
    let all = try ConcordCLI.run(["inspect"], home: daemon.home, app: "workspace")
    try #require(all.status == 0, "\(all.error)")
    #expect(all.output.contains("added #1 Fix login to todo"), "\(all.output)")
    #expect(all.output.contains("moved #1 Fix login from todo to doing"), "\(all.output)")
    // Applied board entries of this account whose words name "login".
    let some = try ConcordCLI.run(
      ["inspect", "--scope", "board", "--outcome", "applied", "--text", "LOGIN"], home: daemon.home, app: "workspace")
    #expect(Self.lines(some.output).count == 2, "\(some.output)")
    let refused = try ConcordCLI.run(["inspect", "--outcome", "refused"], home: daemon.home, app: "workspace")
    #expect(Self.lines(refused.output).count == 1 && refused.output.contains("there is no card #9"), "\(refused.output)")
    let cards = try ConcordCLI.run(["inspect", "--scope", "card:"], home: daemon.home, app: "workspace")
    #expect(Self.lines(cards.output).count == 1 && cards.output.contains("card:2"), "\(cards.output)")
    let nobody = try ConcordCLI.run(["inspect", "--user", "nobody-at-all"], home: daemon.home, app: "workspace")
    #expect(nobody.status == 0 && nobody.output.isEmpty)
  }

  @Test func anEntrysChangeIsShownInItsScope() throws {
    let daemon = try Self.workspaceDaemon()
    let seq = try #require(
      Self.lines(try ConcordCLI.run(["inspect", "--text", "moved"], home: daemon.home, app: "workspace").output).first?
        .split(separator: "\t").first.flatMap { Int($0) })
    let shown = try ConcordCLI.run(["inspect", "--show", String(seq)], home: daemon.home, app: "workspace")
    #expect(shown.output.contains("What it changed in board:"), "\(shown.output)")
    #expect(shown.output.contains("+ columns#2.cards#1"), "\(shown.output)")
  }

  @Test func mistakesAreSaidClearly() throws {
    let daemon = try Self.workspaceDaemon()
    let beyond = try ConcordCLI.run(["inspect", "--show", "999"], home: daemon.home, app: "workspace")
    #expect(beyond.status == 1 && beyond.error.contains("there is no entry 999"), "\(beyond.error)")
    let outcome = try ConcordCLI.run(["inspect", "--outcome", "maybe"], home: daemon.home, app: "workspace")
    #expect(outcome.status == 2 && outcome.error.contains("--outcome takes applied or refused"), "\(outcome.error)")
    let time = try ConcordCLI.run(["inspect", "--since", "yesterday"], home: daemon.home, app: "workspace")
    #expect(time.status == 2 && time.error.contains("--since takes a time"), "\(time.error)")
    let after = try ConcordCLI.run(["inspect", "--after", "2026-01-01T00:00:00Z"], home: daemon.home, app: "workspace")
    #expect(after.status == 2 && after.error.contains("--after goes with --without-user"), "\(after.error)")
  }

  /// The entries a filter shows, exported: disclosed whole, the rest as stubs, and the file
  /// verifies with the public key alone — by `log verify` and by the independent model.
  @Test func aSelectionExportIsEvidenceTheIndependentVerifierTakes() throws {
    let daemon = try Self.workspaceDaemon()
    let file = daemon.home.appending(path: "selection.jsonl")
    let exported = try ConcordCLI.run(
      ["inspect", "--text", "login", "--export", file.path], home: daemon.home, app: "workspace")
    try #require(exported.status == 0, "\(exported.error)")
    #expect(exported.error.contains("exported 2 entries (text=login)"), "\(exported.error)")
    let lines = Self.lines(try String(contentsOf: file, encoding: .utf8))
    #expect(lines.first?.contains(#""selection":"text=login""#) == true, "\(lines.first ?? "")")
    #expect(lines.filter { $0.hasPrefix(#"{"type":"entry""#) }.count == 2)
    #expect(lines.filter { $0.hasPrefix(#"{"type":"stub""#) }.count == lines.count - 4)

    let key = daemon.home.appending(path: "log.sqlite.pub")
    let verified = try ConcordCLI.run(["log", "verify", file.path, "--public-key", key.path], home: daemon.home, app: "workspace")
    #expect(verified.status == 0, "\(verified.error)")
    let publicKey = try String(contentsOf: key, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    let model = try ConcordCLI.runProgram(
      URL(filePath: "/usr/bin/env"),
      ["python3", Repository.root.appending(path: "Tests/ConcordLogTests/audit_verify_model.py").path, "--public-key", publicKey, file.path])
    #expect(model.status == 0 && model.output.hasPrefix("ok 2 "), "\(model.output) \(model.error)")
  }
}

extension InspectCommandTests {
  /// The chain's trust, plainly: whole and signed, or where it breaks.
  @Test func theTrustReportSaysWhereTheChainBreaks() throws {
    let daemon = try Self.workspaceDaemon()
    let sound = try ConcordCLI.run(["inspect", "--trust"], home: daemon.home, app: "workspace")
    #expect(sound.status == 0 && sound.output.contains("✓ The chain verifies whole"), "\(sound.output)\(sound.error)")
    #expect(sound.output.contains("signed by the log's key"), "\(sound.output)")
    _ = daemon.terminate()
    try LogTamper.run(LogTamper.changeFirstCiphertextByte(ofEntry: 3), on: daemon.home)
    let broken = try ConcordCLI.run(["inspect", "--trust"], home: daemon.home, app: "workspace")
    #expect(broken.output.contains("✗ The chain verifies through entry 2"), "\(broken.output)\(broken.error)")
  }
}
