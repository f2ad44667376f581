import ConcordApp
import DaemonDriving
import Foundation
import Testing
import Workspace
import WorkspaceWindows

/// What a script relies on from `concord`, as the README states it: `attach --json` starts with
/// the scope's whole state, a scope that names nothing is a failure that says so, and a
/// malformed action is a usage error (exit code 2) that leaves nothing queued.
@Suite struct ScriptContractTests {
  @Test func attachJSONAlwaysStartsWithASnapshotEvenWhenTheHomeSawTheScopeBefore() throws {
    let daemon = try DaemonUnderTest().start()
    for run in 1...3 {
      // The input ends at once: the window still answers with the state before it closes.
      let window = try ConcordCLI.run(["attach", "counter", "--json"], home: daemon.home, input: "")
      #expect(window.status == 0, "run \(run): \(window.error)")
      let scopeLines = window.output.split(separator: "\n").filter { $0.contains(#""scope":"counter""#) }
      #expect(scopeLines.first?.contains(#""type":"snapshot""#) == true, "run \(run): \(window.output)")
      try ConcordCLI.run(["send", "counter", "inc"], home: daemon.home)
    }
  }

  @Test func attachingAScopeThatNamesNothingFailsWithTheReason() throws {
    let daemon = try DaemonUnderTest().start()
    let window = try ConcordCLI.run(["attach", "note:999", "--json"], home: daemon.home, input: "")
    #expect(window.status == 1)
    #expect(window.error.contains("note:999 names nothing"), "\(window.error)")
  }

  @Test func aMalformedActionIsAUsageErrorAndNothingIsQueued() throws {
    let daemon = try DaemonUnderTest().start()
    for malformed in [#"{"nope":{}}"#, #"{"add":{"amount":"five"}}"#, "{not json", "frobnicate 3"] {
      let sent = try ConcordCLI.run(["send", "counter", malformed], home: daemon.home)
      #expect(sent.status == 2, "\(malformed): \(sent.status) \(sent.error)")
      #expect(sent.error.split(separator: "\n").count == 1, "\(malformed): \(sent.error)")
    }
    #expect(try ConcordCLI.run(["outbox", "list"], home: daemon.home).output.contains("empty"))
    // The daemon away, it is still refused at once, not queued for later.
    _ = daemon.terminate()
    #expect(try ConcordCLI.run(["send", "counter", #"{"nope":{}}"#], home: daemon.home).status == 2)
    #expect(try ConcordCLI.run(["outbox", "list"], home: daemon.home).output.contains("empty"))
  }

  @Test func wordsListsWhatAWindowsHelpShows() throws {
    let home = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: home) }
    for scope in ["board", "card:1", "chat:general"] {
      let words = try ConcordCLI.run(["words", scope], home: home, app: "workspace")
      #expect(words.status == 0, "\(words.error)")
      let window = try #require(Workspace.client.scope(named: String(scope.split(separator: ":")[0])))
      #expect(words.output == window.help.joined(separator: "\n") + "\n", "\(scope)")
    }
    #expect(try ConcordCLI.run(["words", "nosuch"], home: home, app: "workspace").status == 2)
  }

  @Test func aChatMessageIsSentAsAPersonWouldWriteIt() throws {
    let daemon = try DaemonUnderTest(app: "workspace").start()
    let said = try ConcordCLI.run(["send", "chat:general", #"{"say":{"text":"hello"}}"#], home: daemon.home, app: "workspace")
    #expect(said.status == 0, "\(said.error)")
    #expect(try ConcordCLI.run(["state", "chat:general"], home: daemon.home, app: "workspace").output.contains(#""hello""#))
    let old = try ConcordCLI.run(["send", "chat:general", #"{"say":{"_0":"hello"}}"#], home: daemon.home, app: "workspace")
    #expect(old.status == 2, "\(old.error)")
    // JSON that is no object is words: a quoted word or a bracket said as typed.
    for line in [#""LGTM""#, "[1]"] {
      #expect(try ConcordCLI.run(["send", "chat:general", line], home: daemon.home, app: "workspace").status == 0, "\(line)")
    }
    let chat = try ConcordCLI.run(["state", "chat:general"], home: daemon.home, app: "workspace").output
    #expect(chat.contains(#""text":"\"LGTM\"""#) && chat.contains(#""text":"[1]""#), "\(chat)")
  }
}
