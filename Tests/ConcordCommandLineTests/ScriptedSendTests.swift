import DaemonDriving
import Foundation
import Testing

/// A script that sends actions one command at a time leaves the audit trail it should: its
/// actions, and nothing else. A command is not a window a person has open, so the app's
/// presence is not told of it.
@Suite struct ScriptedSendTests {
  @Test func aHundredSendsWriteExactlyAHundredEntries() throws {
    let daemon = try DaemonUnderTest().start()
    let before = try Self.entries(of: daemon.home)

    for _ in 0..<100 {
      let sent = try ConcordCLI.run(["send", "counter", "inc"], home: daemon.home)
      try #require(sent.status == 0, "concord send said: \(sent.error)")
    }

    let after = try Self.entries(of: daemon.home)
    let new = after.dropFirst(before.count)
    #expect(new.count == 100, "new entries: \(new.count)")
    let increments = new.filter { $0.contains(#"\"increment\":{}"#) && $0.contains(#""outcome":"applied""#) }
    #expect(increments.count == 100, "other entries: \(new.filter { !$0.contains("increment") }.prefix(3))")
    // Nobody appears in presence for it.
    let presence = try ConcordCLI.run(["state", "presence"], home: daemon.home).output
    #expect(presence.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("{}"), "presence: \(presence)")
  }

  @Test func aWindowIsStillPresentWhileItIsOpen() throws {
    let daemon = try DaemonUnderTest().start()
    let window = try ConcordCLI.run(["attach", "presence", "--json"], home: daemon.home, input: "")
    #expect(window.status == 0)
    let entries = try Self.entries(of: daemon.home)
    #expect(entries.contains { $0.contains(#"attached"#) }, "entries: \(entries)")
    #expect(entries.contains { $0.contains(#"detached"#) }, "entries: \(entries)")
  }

  /// The entry records of the daemon's whole log, as the audit export writes them.
  static func entries(of home: URL) throws -> [Substring] {
    let export = try ConcordCLI.run(["log", "export", "--format", "jsonl"], home: home)
    try #require(export.status == 0, "export said: \(export.error)")
    return export.output.split(separator: "\n").filter { $0.contains(#""type":"entry""#) }
  }
}
