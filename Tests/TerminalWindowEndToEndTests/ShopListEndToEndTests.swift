import DaemonDriving
import Foundation
import Testing

/// The starter, `Examples/ShopList` — an app's own package that depends on Concord by path —
/// through its own executable, `shoplist`, as its developer and the household use it: the
/// program runs its own daemon; two windows in tmux, one typing and the other following; the
/// daemon stopped while a window queues; started again, each action applied exactly once; and
/// the log's export verifies.
///
/// `scripts/test.sh` builds the starter first; run alone, the test builds it (a few minutes).
@Suite(.serialized) struct ShopListEndToEndTests {
  static let package = Repository.root.appending(path: "Examples/ShopList")

  /// `shoplist`, built when it is not.
  static func binary() throws -> URL {
    let binary = package.appending(path: ".build/debug/shoplist")
    if !FileManager.default.isExecutableFile(atPath: binary.path) {
      let built = try ConcordCLI.runProgram(URL(filePath: "/usr/bin/env"), ["swift", "build", "--package-path", package.path])
      guard built.status == 0 else { throw DriveError("the starter does not build:\n\(built.output)\n\(built.error)") }
    }
    return binary
  }

  static func run(_ binary: URL, _ arguments: [String], home: URL) throws -> ConcordCLI.Result {
    try ConcordCLI.runProgram(binary, arguments, environment: ProcessInfo.processInfo.environment.merging(["CONCORD_HOME": home.path]) { $1 })
  }

  @Test func twoWindowsFollowEachOtherWorkOfflineResendOnceAndTheExportVerifies() throws {
    let shoplist = try Self.binary()
    let home = DaemonUnderTest.makeHome()
    defer {
      _ = try? Self.run(shoplist, ["daemon", "stop"], home: home)
      try? FileManager.default.removeItem(at: home)
    }
    let started = try Self.run(shoplist, ["daemon", "start"], home: home)
    #expect(started.status == 0, "\(started.error)")
    #expect(started.output.hasPrefix("started (pid"), "\(started.output)")

    let attach = "CONCORD_HOME=\(home.path) \(shoplist.path) attach list"
    let typing = try Tmux(command: attach, columns: 80, rows: 20)
    defer { typing.kill() }
    let following = try Tmux(command: attach, columns: 80, rows: 20)
    defer { following.kill() }
    try typing.waitForScreen(containing: "The list is empty", "connected")
    try following.waitForScreen(containing: "The list is empty", "connected")

    // One types; the other follows.
    try typing.type("add oat milk 2")
    try following.waitForScreen(containing: "1. 2 × oat milk")
    try typing.type("add bread")
    try following.waitForScreen(containing: "2. 1 × bread")

    // The daemon stops; the window keeps working, queues, and shows what it queued pending.
    let stopped = try Self.run(shoplist, ["daemon", "stop"], home: home)
    #expect(stopped.status == 0, "\(stopped.error)")
    try typing.waitForScreen(containing: "OFFLINE")
    try typing.type("add eggs 12")
    try typing.type("check 1")
    try typing.waitForScreen(containing: "◌ [ ] 3. 12 × eggs", "◌ [x] 1. 2 × oat milk", "2 to send")
    let sent = try Self.run(shoplist, ["send", "list", "remove 2"], home: home)
    #expect(sent.status == 3, "exit code 3: queued, the daemon is away: \(sent.error)")

    // Back: the queue is resent, both windows show the daemon's state, nothing is pending.
    let restarted = try Self.run(shoplist, ["daemon", "start"], home: home)
    #expect(restarted.status == 0, "\(restarted.error)")
    try typing.waitForScreen(containing: "connected", "all sent", "3. 12 × eggs", timeout: 20)
    try typing.waitForScreen(without: "◌")
    try following.waitForScreen(containing: "[x] 1. 2 × oat milk", "3. 12 × eggs", timeout: 20)
    try following.waitForScreen(without: "bread")

    // A note, in the scope of one item, shows in the list.
    try following.type("/open item:3")
    try following.waitForScreen(containing: "opened item:3")
    try following.type("free range")
    try typing.waitForScreen(containing: "3. 12 × eggs — free range")

    // Each action is in the log exactly once, and the export verifies with the public key alone.
    let export = home.appending(path: "audit.jsonl")
    let exported = try Self.run(shoplist, ["log", "export", "-o", export.path], home: home)
    #expect(exported.status == 0, "\(exported.error)")
    let lines = try String(contentsOf: export, encoding: .utf8).split(separator: "\n")
    for action in [#"\"name\":\"eggs\""#, #"\"check\""#, #"\"remove\""#, #"\"name\":\"oat milk\""#] {
      #expect(lines.filter { $0.contains(action) }.count == 1, "\(action) once in:\n\(lines.joined(separator: "\n"))")
    }
    let verified = try Self.run(shoplist, ["log", "verify", export.path, "--public-key", home.appending(path: "log.sqlite.pub").path], home: home)
    #expect(verified.status == 0 && verified.output.contains("verified"), "\(verified.output)\(verified.error)")
    let state = try Self.run(shoplist, ["state", "list"], home: home)
    #expect(state.output.contains(#""note":"free range""#), "\(state.output)")
  }
}
