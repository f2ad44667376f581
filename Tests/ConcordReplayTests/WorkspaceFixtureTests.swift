import ConcordJSON
import ConcordLog
import DaemonDriving
import Foundation
import Testing
import Workspace

/// A Workspace log written by an earlier build (`Fixtures/workspace-v1`, made by
/// `scripts/make-workspace-fixture.sh` with every kind of Workspace action in it) keeps working:
/// this build's daemon boots it and carries on, and the entries it had export to the same bytes,
/// as the chain requires.
@Suite struct WorkspaceFixtureTests {
  /// Every kind of action the Workspace logs, as `case` or `case.subcase`: the fixture must hold
  /// each. (`presence.cleared` is reduced inside `booted`, never logged.)
  static let everyKind: Set<String> = [
    "board.addCard", "board.editCard", "board.moveCard", "board.assign", "board.label", "board.unlabel",
    "board.setDue", "board.archive", "board.restore", "board.addColumn", "board.renameColumn", "board.moveColumn",
    "board.limitColumn", "board.removeColumn", "board.invite", "board.undo", "board.redo",
    "chat.say", "chat.edit", "chat.delete", "chat.createChannel",
    "presence.attached", "presence.detached", "reminders.fellDue", "reminders.raise", "booted",
  ]

  @Test func aLogFromAnEarlierBuildBootsVerifiesAndCarriesOnWithItsEntriesUnchanged() throws {
    let home = try Self.copyOfFixture()
    defer { try? FileManager.default.removeItem(at: home) }
    let before = try Self.export(home)
    let entries = before.filter { $0.contains(#""type":"entry""#) }
    #expect(entries.count == 50)
    #expect(Set(try entries.map(Self.kind)) == Self.everyKind)
    #expect(try ConcordCLI.run(["log", "verify"], home: home, app: "workspace").status == 0)
    // Replayed from the log alone, the state is the one the build that wrote it printed, with
    // its dates spelled as this version spells them.
    let replayed = try ConcordCLI.run(["state"], home: home, app: "workspace")
    let printed = try Data(contentsOf: Self.fixture.appending(path: "state.json"))
    var expected = Self.datesAsTimestamps(try JSONValue(parsing: String(decoding: printed, as: UTF8.self)))
    // Version 3 remembers the reminders put away; version 1 put none away.
    if case var .object(state) = expected, case var .object(reminders)? = state["reminders"] {
      reminders["dismissed"] = []
      state["reminders"] = .object(reminders)
      expected = .object(state)
    }
    // Version 4 keeps the words of each board's last change, and undo and redo name the change
    // they took back or put back; the build that wrote the log printed neither. Those are held
    // apart: each change undo or redo names is one the feed said before.
    let (replayedState, named) = Self.withoutChangeWords(try JSONValue(parsing: replayed.output))
    #expect(replayedState == expected, "\(replayed.output.prefix(2_000))")
    #expect(!named.isEmpty && named.allSatisfy { $0.change.isEmpty == false && $0.saidBefore }, "\(named)")

    let daemon = try DaemonUnderTest(home: home, app: "workspace").start()
    let sent = try ConcordCLI.run(["send", "chat:general", "still here after the upgrade"], home: home, app: "workspace")
    #expect(sent.status == 0, "\(sent.error)")
    _ = daemon.terminate()

    let after = try Self.export(home)
    let kept = after.filter { $0.contains(#""type":"entry""#) }
    #expect(kept.count > 51, "the new action, and the daemon's boot")
    #expect(Array(kept.prefix(50)) == entries, "the old entries export to the same bytes")
    #expect(try ConcordCLI.run(["log", "verify"], home: home, app: "workspace").status == 0)
    let state = try ConcordCLI.run(["state", "chat:general"], home: home, app: "workspace")
    #expect(state.output.contains("still here after the upgrade"), "\(state.output)")
    // What this build appended is in its own spelling: no `_0`, dates as timestamps.
    for entry in kept.dropFirst(50) {
      let action = try #require(try JSONSerialization.jsonObject(with: Data(entry.utf8)) as? [String: Any])["action"] as? String
      #expect(action?.contains("_0") == false, "\(entry)")
      if let action, let payload = try JSONSerialization.jsonObject(with: Data(action.utf8)) as? [String: [String: Any]],
        let at = payload.values.first?["at"]
      {
        #expect((at as? String)?.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "\(action)")
      }
    }
  }

  /// `state` without what version 4 added: the boards' `lastChange` and `lastUndone`, and undo's and redo's
  /// feed lines naming a change (spelled as before, "undid their last change"). Also each
  /// change named, and whether an earlier line of the feed said it.
  static func withoutChangeWords(_ state: JSONValue) -> (JSONValue, [(change: String, saidBefore: Bool)]) {
    guard case var .object(members) = state else { return (state, []) }
    func withoutLastChange(_ board: JSONValue) -> JSONValue {
      guard case var .object(fields) = board else { return board }
      fields["lastChange"] = nil
      fields["lastUndone"] = nil
      return .object(fields)
    }
    if case var .object(history)? = members["board"] {
      if let present = history["present"] { history["present"] = withoutLastChange(present) }
      for key in ["past", "future"] {
        if case let .array(boards)? = history[key] { history[key] = .array(boards.map(withoutLastChange)) }
      }
      members["board"] = .object(history)
    }
    var named: [(String, Bool)] = []
    if case var .object(activity)? = members["activity"], case let .array(items)? = activity["items"] {
      var said: [String] = []
      activity["items"] = .array(
        items.map { item in
          guard case var .object(fields) = item, case let .string(text)? = fields["text"] else { return item }
          for (prefix, before) in [("undid: ", "undid their last change"), ("redid: ", "redid their change")] where text.hasPrefix(prefix) {
            let change = String(text.dropFirst(prefix.count))
            named.append((change, said.contains(change)))
            fields["text"] = .string(before)
          }
          said.append(text)
          return .object(fields)
        })
      members["activity"] = .object(activity)
    }
    return (.object(members), named)
  }

  /// The keys under which the fixture's state holds dates: version 1 wrote each as a number of
  /// seconds since 2001-01-01.
  static let dateKeys: Set<String> = ["at", "createdAt", "updatedAt", "editedAt", "due", "date", "since"]

  /// `state` as version 2 spells it, worked out from the README's rule rather than the code's:
  /// every date is an ISO-8601 UTC timestamp, rounded to the millisecond (the whole seconds
  /// formatted by Foundation's `ISO8601DateFormatter`).
  static func datesAsTimestamps(_ value: JSONValue) -> JSONValue {
    switch value {
    case let .object(members):
      var converted: [String: JSONValue] = [:]
      for (key, member) in members {
        converted[key] = switch (dateKeys.contains(key), member) {
        case let (true, .number(seconds)): .string(timestamp(secondsSince2001: seconds))
        case let (true, .integer(seconds)): .string(timestamp(secondsSince2001: Double(seconds)))
        default: datesAsTimestamps(member)
        }
      }
      return .object(converted)
    case let .array(elements): return .array(elements.map(datesAsTimestamps))
    default: return value
    }
  }

  static func timestamp(secondsSince2001 seconds: Double) -> String {
    let milliseconds = Int64(((seconds + 978_307_200) * 1000).rounded())
    let whole = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(milliseconds / 1000)))
    return whole.dropLast() + String(format: ".%03dZ", Int(milliseconds % 1000))
  }

  /// An entry written by a later version of Workspace than this build's is never skipped: the
  /// daemon does not start and `concord state` does not print a state, and both say which entry.
  @Test func anEntryFromANewerVersionStopsTheDaemonAndTheState() throws {
    let home = try Self.copyOfFixture()
    defer { try? FileManager.default.removeItem(at: home) }
    let log = try ActionLog.open(at: home.appending(path: "log.sqlite"), key: .file(home.appending(path: "key")))
    let newer = Workspace.version + 1
    try log.append([
      LogRecord(
        client: "later-build", cseq: 1, at: Date(), user: "alice", scope: "board", action: #"{"board":{"teleport":{}}}"#,
        outcome: .applied, app: "workspace", appVersion: newer)
    ])
    try log.close()
    let said = "entry 51 (workspace version \(newer)) was written by a newer version"
    let state = try ConcordCLI.run(["state"], home: home, app: "workspace")
    #expect(state.status != 0 && state.error.contains(said), "\(state.status): \(state.error)")
    let daemon = try DaemonUnderTest(home: home, app: "workspace")
    #expect(throws: DriveError.self) { try daemon.start() }
    #expect(daemon.output.contains(said), "\(daemon.output)")
    daemon.removeHome()
  }

  static let fixture = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Fixtures/workspace-v1")

  /// The fixture in a fresh home (0700), its files 0600 as a home keeps them.
  static func copyOfFixture() throws -> URL {
    let home = DaemonUnderTest.makeHome()
    for name in ["log.sqlite", "log.sqlite.pub", "log.sqlite.checkpoint", "key"] {
      let target = home.appending(path: name)
      try FileManager.default.copyItem(at: fixture.appending(path: name), to: target)
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target.path)
    }
    return home
  }

  static func export(_ home: URL) throws -> [String] {
    let export = try ConcordCLI.run(["log", "export", "--format", "jsonl"], home: home, app: "workspace")
    try #require(export.status == 0, "\(export.error)")
    return export.output.split(separator: "\n").map(String.init)
  }

  /// `board.addCard` for an entry whose action is the board's `addCard`, read from the JSON text
  /// alone: the outer case, then the inner one (inside the payload and its `action`).
  static func kind(of entry: String) throws -> String {
    let record = try #require(try JSONSerialization.jsonObject(with: Data(entry.utf8)) as? [String: Any])
    let text = try #require(record["action"] as? String)
    let action = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let outer = try #require(action.keys.first)
    var payload = action[outer] as? [String: Any] ?? [:]
    if let wrapped = payload["_0"] as? [String: Any] { payload = wrapped }
    if let inner = payload["action"] as? [String: Any] { payload = inner }
    return payload.keys.first.map { "\(outer).\($0)" } ?? outer
  }
}
