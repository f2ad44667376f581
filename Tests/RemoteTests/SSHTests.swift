import ConcordClient
import ConcordLog
import ConcordPlatform
import ConcordWire
import DaemonDriving
import Foundation
import Testing
import Workspace

/// A team on several machines, through real OpenSSH on loopback (``SSHLoopback``): a person on a
/// laptop reaches the daemon on the server with `CONCORD_HOST=ssh://…`; the daemon records the
/// account that logged in; the laptop keeps its own outbox for that server and resends it
/// exactly once, even when the link is cut in the middle; and each way it can fail says what
/// happened and what to do, with the exit codes of the README.
@Suite(
  .serialized,
  .enabled(if: TestAccounts.canCreate, "needs root to add test accounts and run sshd on loopback (CI runs as root)"))
struct SSHTests {
  @Test func aLaptopActsOnTheServersDaemonAsTheAccountThatLoggedIn() throws {
    let server = try SSHLoopback()
    defer { server.remove() }
    try server.startDaemon()
    let laptop = server.laptopHome
    let environment = server.laptop()

    let sent = try concord(["send", "board", #"add "Written on the laptop""#], environment)
    #expect(sent.status == 0, "\(sent.error)")
    #expect(sent.output.contains("applied as entry"))
    // The commands share the laptop's relay, and so one ssh channel: one relay stays (for a
    // minute), and one `dial-stdio --mux` on the server; none per command.
    _ = try concord(["send", "board", #"add "A second one""#], environment)
    let relays = try SSHLoopback.run("/usr/bin/pgrep", ["-f", "relay --host ssh://\(server.account)@testbox"], allowFailure: true)
    #expect(relays.output.split(separator: "\n").count == 1, "relays: \(relays.output)")
    let trunks = try SSHLoopback.run("/usr/bin/pgrep", ["-u", server.account, "-f", "^\(ConcordCLI.binary.path) dial-stdio --mux"], allowFailure: true)
    #expect(trunks.output.split(separator: "\n").count == 1, "trunks on the server: \(trunks.output)")
    let status = try concord(["daemon", "status"], environment)
    #expect(status.status == 0 && status.output.contains("log: on ssh://\(server.account)@testbox"), "\(status.output)\(status.error)")

    // On the server: the card is there, made by the account that logged in over SSH (the
    // laptop runs as root).
    let board = try server.serverConcord(["state", "board"])
    let view = try JSONValue(parsing: board.output).decode(BoardView.self)
    let card = try #require(view.columns.flatMap(\.cards).first { $0.title == "Written on the laptop" })
    #expect(card.createdBy == server.account)

    // The laptop's files for that server are its own, under remotes/.
    #expect(FileManager.default.fileExists(atPath: laptop.appending(path: "remotes/\(server.account)@testbox/outbox.sqlite").path))
    // The commands that read the log run on the server, their output here: the state, and an
    // export written to a file on the laptop that verifies there.
    let state = try concord(["state", "board"], environment)
    #expect(state.status == 0, "\(state.error)")
    #expect(try JSONValue(parsing: state.output) == JSONValue(parsing: board.output))
    let export = server.directory.appending(path: "laptop-audit.jsonl").path
    let exported = try concord(["log", "export", "-o", export], environment)
    #expect(exported.status == 0, "\(exported.error)")
    let verified = try ConcordCLI.runProgram(ConcordCLI.binary, ["log", "verify", export])
    #expect(verified.status == 0, "\(verified.output)\(verified.error)")
    #expect(try concord(["log", "verify"], environment).status == 0)
    // The inspector too: the entries in the app's words, and a selection exported to the laptop.
    let inspected = try concord(["inspect", "--user", server.account], environment)
    #expect(inspected.status == 0 && inspected.output.contains("added #1 Written on the laptop to todo"), "\(inspected.output)\(inspected.error)")
    let selection = server.directory.appending(path: "laptop-selection.jsonl").path
    let selected = try concord(["inspect", "--text", "second", "--export", selection], environment)
    #expect(selected.status == 0, "\(selected.error)")
    let selectionVerified = try ConcordCLI.runProgram(ConcordCLI.binary, ["log", "verify", selection])
    #expect(selectionVerified.status == 0, "\(selectionVerified.output)\(selectionVerified.error)")
    let stateAtNothing = try concord(["state", "--at", "999999"], environment)
    #expect(stateAtNothing.status == 1 && stateAtNothing.error.contains("on ssh://"), "\(stateAtNothing.error)")
    // Starting or stopping a daemon is done on its machine.
    let stop = try concord(["daemon", "stop"], environment)
    #expect(stop.status == 2 && stop.error.contains("run it there: ssh \(server.account)@testbox concord"), "\(stop.error)")
  }

  /// Two people, each on a laptop of their own, on one team daemon (run by a service account
  /// for the group, its home named in the URL): each sees the other's change, the log names each
  /// by the account that logged in, and a laptop whose actions were queued while the daemon was
  /// restarted resends them to the new one.
  @Test func twoPeopleOnTwoLaptopsShareOneBoard() throws {
    let server = try SSHLoopback()
    defer { server.remove() }
    try server.startDaemon(team: true)
    func laptop(_ person: String) -> [String: String] {
      var environment = server.clientEnvironment(home: server.directory.appending(path: "laptop-\(person)"), runtime: person == server.account ? "rta" : "rtb")
      environment["CONCORD_HOST"] = "ssh://\(person)@testbox\(server.teamHome)"
      return environment
    }
    let alice = laptop(server.account)
    let bob = laptop(server.colleague)
    let first = try concord(["send", "board", #"add "From the first laptop""#], alice)
    #expect(first.status == 0, "\(first.error)")
    // The other laptop's window (a script's: the whole state first) shows it.
    let seen = try ConcordCLI.runProgram(ConcordCLI.binary, ["attach", "board", "--json"], environment: bob, input: "")
    #expect(seen.output.contains("From the first laptop"), "\(seen.output.prefix(500))\(seen.error)")
    let answered = try concord(["send", "board", #"add "From the second laptop""#], bob)
    #expect(answered.status == 0, "\(answered.error)")

    // The daemon restarts while the first laptop queues.
    server.stopDaemon()
    let queued = try concord(["send", "board", #"add "Queued during the restart""#], alice)
    #expect(queued.status == 3, "\(queued.error)")
    try server.startDaemon(team: true)
    let synced = try concord(["outbox", "sync"], alice)
    #expect(synced.status == 0, "\(synced.error)")

    let board = try JSONValue(parsing: try server.serverConcord(["state", "board"], team: true).output).decode(BoardView.self)
    let authors = Dictionary(board.columns.flatMap(\.cards).map { ($0.title, $0.createdBy) }, uniquingKeysWith: { first, _ in first })
    #expect(authors["From the first laptop"] == server.account)
    #expect(authors["From the second laptop"] == server.colleague)
    #expect(authors["Queued during the restart"] == server.account)
    #expect(board.columns.flatMap(\.cards).count == 3)
  }

  /// A window on the laptop, through ssh, as a person uses it (tmux): a card typed shows; the
  /// link is cut (the SSH sessions killed); the window goes OFFLINE and shows what is typed as
  /// pending; the link comes back by itself and the queue is resent.
  @Test func aWindowOverSSHKeepsWorkingWhenTheLinkIsCut() throws {
    let server = try SSHLoopback()
    defer { server.remove() }
    try server.startDaemon()
    let environment = server.laptop()
    let variables = ["CONCORD_HOME", "CONCORD_APP", "CONCORD_SSH_COMMAND", "CONCORD_REMOTE_COMMAND", "XDG_RUNTIME_DIR", "CONCORD_HOST"]
      .map { "\($0)=\"\(environment[$0]!)\"" }.joined(separator: " ")
    let window = try Tmux(command: "env -u NO_COLOR \(variables) \(ConcordCLI.binary.path) attach board", columns: 100, rows: 24)
    defer { window.kill() }
    try window.waitForScreen(containing: "connected", "\(server.account)", timeout: 20)
    try window.type("add Over the wire")
    try window.waitForScreen(containing: "✓ added #1 Over the wire to todo")

    // The link goes: every SSH session of the account ends (the shared connection with them).
    _ = try SSHLoopback.run("/usr/bin/pkill", ["-f", "sshd: \(server.account)"], allowFailure: true)
    try window.waitForScreen(containing: "OFFLINE", timeout: 20)
    try window.type("add Typed while cut off")
    try window.waitForScreen(containing: "◌ #2 Typed while cut off", "◌ 1 shown ahead of the daemon")
    // sshd still listens: the window finds its way back and the queue is resent.
    try window.waitForScreen(containing: "back, 1 replayed", timeout: 30)
    try window.waitForScreen(without: "◌ #2")
    let board = try JSONValue(parsing: try server.serverConcord(["state", "board"]).output).decode(BoardView.self)
    #expect(board.columns.flatMap(\.cards).map(\.title) == ["Over the wire", "Typed while cut off"])
  }

  /// The inspector's full-screen window on the server's log, from the laptop, as an auditor
  /// uses it (tmux): ssh gives it a terminal on the server (`ssh -t`), the keys typed here reach
  /// it, and `q` ends it and the ssh session with it.
  @Test func theInspectorWindowRunsOnTheServersLogThroughSSH() throws {
    let server = try SSHLoopback()
    defer { server.remove() }
    try server.startDaemon()
    let environment = server.laptop()
    for words in [#"add "Seen from the laptop""#, "move 1 doing"] {
      let sent = try concord(["send", "board", words], environment)
      try #require(sent.status == 0, "\(sent.error)")
    }
    let variables = ["CONCORD_HOME", "CONCORD_APP", "CONCORD_SSH_COMMAND", "CONCORD_REMOTE_COMMAND", "XDG_RUNTIME_DIR", "CONCORD_HOST"]
      .map { "\($0)=\"\(environment[$0]!)\"" }.joined(separator: " ")
    let window = try Tmux(command: "env -u NO_COLOR \(variables) \(ConcordCLI.binary.path) inspect", columns: 120, rows: 24)
    defer { window.kill() }
    try window.waitForScreen(containing: "following", "added #1 Seen from the laptop to todo", "moved #1", timeout: 20)
    // Back to the add, and what it changed.
    try window.press("Up")
    try window.press("Enter")
    try window.waitForScreen(containing: "What it changed in board:", "Seen from the laptop")
    try window.press("Escape")
    // A card added on the server while the window is open shows (it follows once at the end again).
    try window.press("End")
    let added = try server.serverConcord(["send", "board", #"add "Added on the server""#])
    #expect(added.status == 0, "\(added.error)")
    try window.waitForScreen(containing: "added #2 Added on the server to todo", timeout: 15)
    try window.press("q")
    try window.waitUntilExited()
  }

  /// 300 actions queued on the laptop while the server is away; the sync is cut (its ssh
  /// killed) part way through and run again: every action is applied exactly once.
  @Test func aSyncCutPartWayIsAppliedExactlyOnce() throws {
    let server = try SSHLoopback()
    defer { server.remove() }
    let laptop = server.laptopHome
    let environment = server.laptop()
    // The daemon is not running yet: a send is queued (exit 3), and 299 more wait with it.
    let first = try concord(["send", "board", #"{"addCard":{"title":"queued 1"}}"#], environment)
    #expect(first.status == 3, "\(first.error)")
    let outbox = try Outbox.open(home: ConcordHome(laptop.appending(path: "remotes/\(server.account)@testbox")))
    for index in 2...300 { try outbox.enqueue(scope: "board", action: ["addCard": ["title": .string("queued \(index)")]]) }
    try server.startDaemon()
    // Cut: the sync's ssh is killed after a moment, then the sync runs again until all is sent.
    let sync = Process()
    sync.executableURL = ConcordCLI.binary
    sync.arguments = ["outbox", "sync"]
    sync.environment = environment
    sync.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    sync.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try sync.run()
    usleep(300_000)
    _ = try SSHLoopback.run("/usr/bin/pkill", ["-f", server.runtimeRoot + "/"], allowFailure: true)
    sync.waitUntilExit()
    // A sync that ends well has sent the whole queue.
    var synced = false
    for _ in 0..<10 where !synced {
      synced = try concord(["outbox", "sync"], environment).status == 0
    }
    #expect(synced)
    #expect(sync.terminationStatus != 0, "the first sync was cut before it ended")
    let board = try JSONValue(parsing: try server.serverConcord(["state", "board"]).output).decode(BoardView.self)
    let titles = board.columns.flatMap(\.cards).map(\.title)
    #expect(titles.count == 300, "\(titles.count) cards")
    #expect(Set(titles) == Set((1...300).map { "queued \($0)" }))
  }

  /// The same on two "machines" (network namespaces joined by a veth pair): the link goes down
  /// in the middle of a sync of 300 actions — no reset, only silence, as when a train enters a
  /// tunnel — and comes back; each action is applied exactly once.
  @Test(.enabled(if: SSHLoopback.canMakeNamespaces, "this machine cannot make network namespaces; the loopback variant above runs instead"))
  func aLinkThatGoesSilentMidSyncLosesNothingAndRepeatsNothing() throws {
    let server = try SSHLoopback(namespaces: true)
    defer { server.remove() }
    let environment = server.laptop()
    let first = try server.laptopConcord(["send", "board", #"{"addCard":{"title":"queued 1"}}"#], environment)
    #expect(first.status == 3, "\(first.error)")
    let outbox = try Outbox.open(home: ConcordHome(server.directory.appending(path: "laptop/remotes/\(server.account)@testbox")))
    for index in 2...300 { try outbox.enqueue(scope: "board", action: ["addCard": ["title": .string("queued \(index)")]]) }
    try server.startDaemon()

    let sync = Process()
    sync.executableURL = URL(filePath: "/usr/sbin/ip")
    sync.arguments = ["netns", "exec", server.namespaces!.laptop, ConcordCLI.binary.path, "outbox", "sync"]
    sync.environment = environment
    sync.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    sync.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try sync.run()
    usleep(300_000)
    try server.setLink(up: false)
    // The sync hears nothing; ssh gives up within its keep-alive (3 × 5 s). Then the link is back.
    sync.waitUntilExit()
    #expect(sync.terminationStatus != 0, "the sync was cut before it ended")
    try server.setLink(up: true)
    var synced = false
    for _ in 0..<10 where !synced {
      synced = try server.laptopConcord(["outbox", "sync"], environment).status == 0
    }
    #expect(synced)
    let board = try JSONValue(parsing: try server.serverConcord(["state", "board"]).output).decode(BoardView.self)
    let titles = board.columns.flatMap(\.cards).map(\.title)
    #expect(titles.count == 300, "\(titles.count) cards")
    #expect(Set(titles) == Set((1...300).map { "queued \($0)" }))
  }

  /// A server whose log went back in time (its files restored from an older copy) is caught by
  /// the laptop that saw the newer entries: over ssh as on the server itself, nothing is sent
  /// until a person accepts it.
  @Test func aServerWhoseLogWentBackIsCaughtByTheLaptop() throws {
    let server = try SSHLoopback()
    defer { server.remove() }
    let home = server.accountHome.appending(path: ".local/state/concord")
    let older = server.directory.appending(path: "older")
    try server.startDaemon()
    let environment = server.laptop()
    #expect(try concord(["send", "board", "add first"], environment).status == 0)
    server.stopDaemon()
    try FileManager.default.createDirectory(at: older, withIntermediateDirectories: true)
    for name in try FileManager.default.contentsOfDirectory(atPath: home.path) where name.hasPrefix("log.sqlite") {
      try FileManager.default.copyItem(at: home.appending(path: name), to: older.appending(path: name))
    }
    try server.startDaemon()
    #expect(try concord(["send", "board", "add second"], environment).status == 0)
    server.stopDaemon()

    // Someone with the server's files puts the older copy back.
    for name in try FileManager.default.contentsOfDirectory(atPath: home.path) where name.hasPrefix("log.sqlite") {
      try FileManager.default.removeItem(at: home.appending(path: name))
    }
    for name in try FileManager.default.contentsOfDirectory(atPath: older.path) {
      try FileManager.default.copyItem(at: older.appending(path: name), to: home.appending(path: name))
    }
    try SSHLoopback.run("/bin/chown", ["-R", server.account, home.path])
    try server.startDaemon()

    let refused = try concord(["send", "board", "add third"], environment)
    #expect(refused.status == 1, "\(refused.output)\(refused.error)")
    #expect(refused.error.contains("the log was rolled back or restored from an older copy"), "\(refused.error)")
    #expect(refused.error.contains("concord outbox sync --accept-rollback"), "\(refused.error)")
    let accepted = try concord(["outbox", "sync", "--accept-rollback"], environment)
    #expect(accepted.status == 0 && accepted.output.contains("synced: 1 applied"), "\(accepted.output)\(accepted.error)")
    let titles = try JSONValue(parsing: try server.serverConcord(["state", "board"]).output).decode(BoardView.self)
      .columns.flatMap(\.cards).map(\.title)
    #expect(titles == ["first", "third"], "\(titles)")
  }

  @Test func eachFailureSaysWhatHappenedAndWhatToDo() throws {
    let server = try SSHLoopback()
    defer { server.remove() }
    let laptop = server.laptopHome
    let environment = server.clientEnvironment(home: laptop)
    func send(_ host: String, _ changes: [String: String] = [:]) throws -> ConcordCLI.Result {
      try concord(["send", "board", "add x"], environment.merging(changes.merging(["CONCORD_HOST": host]) { $1 }) { $1 })
    }
    // No daemon runs there: unreachable (3), the action queued.
    let noDaemon = try send("ssh://\(server.account)@testbox")
    #expect(noDaemon.status == 3 && noDaemon.error.contains("no daemon runs in") && noDaemon.output.contains("queued"), "\(noDaemon.error)")
    // `concord` is not on the server.
    let missing = try send("ssh://\(server.account)@testbox", ["CONCORD_REMOTE_COMMAND": "/nowhere/concord"])
    #expect(missing.status == 1 && missing.error.contains("`concord` was not found on the server"), "\(missing.error)")
    // A login the server refuses.
    let refused = try send("ssh://nobody@testbox", ["XDG_RUNTIME_DIR": server.runtimePath("rtr")])
    #expect(refused.status == 1 && refused.error.contains("the server refused the login"), "\(refused.error)")
    // A host key that is not the one known (a fresh connection: no shared one to reuse).
    try FileManager.default.createDirectory(atPath: server.runtimePath("rtc"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let changed = try send(
      "ssh://\(server.account)@testbox",
      ["CONCORD_SSH_COMMAND": "ssh -F \(server.path("ssh_config.changed"))", "XDG_RUNTIME_DIR": server.runtimePath("rtc")])
    #expect(changed.status == 1 && changed.error.contains("host key is not the one known"), "\(changed.error)")
    // Nothing listens there.
    let away = try send("ssh://\(server.account)@127.0.0.1:1")
    #expect(away.status == 3 && away.error.contains("cannot be reached"), "\(away.error)")
    // Not a host at all, nor an option in disguise.
    let bad = try send("ssh://-oProxyCommand=x")
    #expect(bad.status == 2, "\(bad.error)")
  }

  private func concord(_ arguments: [String], _ environment: [String: String]) throws -> ConcordCLI.Result {
    try ConcordCLI.runProgram(ConcordCLI.binary, arguments, environment: environment)
  }
}
