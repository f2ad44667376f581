import DaemonDriving
import Foundation
import Testing

/// An app with no renderers and no words, as a program of its own (`generic-sample`: the sample
/// app with its look taken away), in a real terminal: its notes show as an outline, an action
/// typed as JSON is taken, one typed while the daemon is stopped shows pending (◌) and queued,
/// and once the program's daemon is started again the queue is resent and the mark goes.
@Suite(.serialized) struct GenericWindowEndToEndTests {
  static var binary: URL { DaemonUnderTest.binary.deletingLastPathComponent().appending(path: "generic-sample") }

  static func run(_ arguments: [String], home: URL) throws -> ConcordCLI.Result {
    try ConcordCLI.runProgram(binary, arguments, environment: ProcessInfo.processInfo.environment.merging(["CONCORD_HOME": home.path]) { $1 })
  }

  @Test func theSampleAppWithoutItsLookShowsOutlinesTakesJSONAndResendsWhatWasQueuedOffline() throws {
    let home = DaemonUnderTest.makeHome()
    defer {
      _ = try? Self.run(["daemon", "stop"], home: home)
      try? FileManager.default.removeItem(at: home)
    }
    let started = try Self.run(["daemon", "start"], home: home)
    #expect(started.status == 0, "\(started.error)")
    let tmux = try Tmux(command: "env -u CONCORD_APP CONCORD_HOME=\(home.path) \(Self.binary.path) attach notes")
    defer { tmux.kill() }
    try tmux.waitForScreen(containing: "[]", "connected")

    try tmux.type(#"{"add":{"text":"buy milk"}}"#)
    try tmux.waitForScreen(containing: "- done: false", "text: buy milk", "all sent")
    try tmux.type("add eggs")
    try tmux.waitForScreen(containing: "takes actions as JSON (its actions: add, addLater, remove)")
    try tmux.type("help")
    try tmux.waitForScreen(containing: "Type an action as JSON, one of:", #"{"add":{"text":"buy milk"}}"#)
    try tmux.press("Escape")

    let stopped = try Self.run(["daemon", "stop"], home: home)
    #expect(stopped.status == 0, "\(stopped.error)")
    try tmux.waitForScreen(containing: "OFFLINE")
    try tmux.type(#"{"add":{"text":"eggs"}}"#)
    try tmux.waitForScreen(containing: "◌   text: eggs", "1 to send")
    #expect(!tmux.screen(of: "w").contains("◌   text: buy milk"), "what the daemon has is not marked")

    let restarted = try Self.run(["daemon", "start"], home: home)
    #expect(restarted.status == 0, "\(restarted.error)")
    try tmux.waitForScreen(containing: "connected", "all sent", "text: eggs", timeout: 20)
    try tmux.waitForScreen(without: "◌")
    let notes = try Self.run(["state", "notes"], home: home).output
    #expect(notes.components(separatedBy: "eggs").count == 2, "applied exactly once: \(notes)")
    #expect(notes.contains("buy milk"))
  }
}
