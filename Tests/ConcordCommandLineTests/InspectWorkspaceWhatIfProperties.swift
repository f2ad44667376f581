import ConcordApp
import ConcordJSON
import ConcordLog
import ConcordPlatform
import ConcordWire
import DaemonDriving
import Foundation
import Logging
import PropertyRandom
import Synchronization
import Testing
import Workspace

@testable import ConcordServer

/// Workspace's "what if", held to a daemon that never saw the entries left out. Its states carry
/// who and when, so the second daemon runs in this process with its wall clock set, before each
/// action, to the time the first daemon's app saw it at: everything else it does — admission,
/// reduction, its own fed-back entries, its log — is the daemon's, not the inspector's.
@Suite(.serialized) struct InspectWorkspaceWhatIfProperties {
  /// Actions as Workspace's schema spells them (schema/workspace.schema.json), chosen to be
  /// refused often and to depend on what came before: cards 1–5 moved, edited, labelled and
  /// archived whether or not they exist, undo and redo, and chat.
  static func randomAction(_ random: inout PropertyRandom) -> (scope: String, json: String) {
    let card = random.int(1...5)
    return random.pick([
      ("board", #"{"addCard":{"title":"Card \#(random.int(0...99))"}}"#), ("board", #"{"addCard":{"title":"Card \#(random.int(0...99))"}}"#),
      ("board", #"{"moveCard":{"id":\#(card),"column":"\#(random.pick(["todo", "doing", "done"]))"}}"#),
      ("board", #"{"editCard":{"id":\#(card),"title":"Renamed \#(random.int(0...9))"}}"#),
      ("board", #"{"label":{"id":\#(card),"label":"urgent"}}"#), ("board", #"{"archive":{"id":\#(card)}}"#),
      ("board", #"{"undo":{}}"#), ("board", #"{"redo":{}}"#), ("chat:general", #"{"say":{"text":"said \#(random.int(0...99))"}}"#),
    ])
  }

  @Test(arguments: [UInt64(31), 32, 33])
  func aWorkspaceWhatIfIsWhatADaemonReachesWithoutThoseEntries(seed: UInt64) async throws {
    var random = PropertyRandom(seed: PropertyRandom.replayed ?? seed)
    let original = try DaemonUnderTest(app: "workspace").start()
    defer {
      _ = original.terminate()
      original.removeHome()
    }
    let actions = (0..<20).map { _ in Self.randomAction(&random) }
    for (scope, json) in actions {
      let sent = try ConcordCLI.run(["send", scope, json], home: original.home, app: "workspace")
      try #require([0, 1].contains(sent.status), "concord send \(scope) \(json) said: \(sent.error)")
    }
    // The entries as the log holds them (the daemon's own among them: its boot, what it fed back).
    let originalLog = try ActionLog.open(at: ConcordHome(original.home).log, key: .file(ConcordHome(original.home).key))
    var entries: [LogEntry] = []
    try originalLog.forEachEntry { entries.append($0) }
    try originalLog.close()
    let sent = entries.filter { $0.record.client != LogRecord.daemonClient }
    try #require(sent.count == 20, "\(sent.count) entries of sends")

    let leftOut = Set((0..<random.int(1...3)).map { _ in sent[random.int(0...(sent.count - 1))].seq })
    let asked = try ConcordCLI.run(
      ["inspect", "--json"] + leftOut.sorted().flatMap { ["--without", String($0)] }, home: original.home, app: "workspace")
    try #require(asked.status == 0, "inspect said: \(asked.error)")
    let answer = try #require(try InspectReplayProperties.objects(asked.output).first)

    // A daemon that never saw them, each kept action sent at the time it was logged.
    let kept = entries.filter { !leftOut.contains($0.seq) }
    // Each entry of a send is one of the actions, in order.
    let sentAction = Dictionary(uniqueKeysWithValues: zip(sent.map(\.seq), actions))
    let replayed = try await Self.daemon(sending: kept, actions: sentAction)
    defer { try? FileManager.default.removeItem(at: replayed.home) }

    // Its entries of sends are the kept ones, one for one, in order.
    let appliedThen = Dictionary(uniqueKeysWithValues: entries.map { ($0.seq, $0.record.outcome.isApplied) })
    let keptSent = kept.filter { $0.record.client != LogRecord.daemonClient }
    try #require(replayed.sentOutcomes.count == keptSent.count)
    let pairs = zip(keptSent, replayed.sentOutcomes)
    let nowRefused = pairs.filter { appliedThen[$0.0.seq]! && !$0.1 }.map(\.0.seq)
    let nowApplied = pairs.filter { !appliedThen[$0.0.seq]! && $0.1 }.map(\.0.seq)
    let refused = (answer["refused"] as? [[String: Any]] ?? []).compactMap { ($0["entry"] as? [String: Any])?["seq"] as? Int }
    let applied = (answer["applied"] as? [[String: Any]] ?? []).compactMap { $0["seq"] as? Int }
    #expect(refused == nowRefused.map(Int.init), "seed \(seed): refused \(refused), the daemon refused \(nowRefused)")
    #expect(applied == nowApplied.map(Int.init), "seed \(seed): applied \(applied), the daemon applied \(nowApplied)")

    let whatIf = try JSONSerialization.data(withJSONObject: try #require(answer["state"]))
    let state = try ConcordCLI.run(["state"], home: replayed.home, app: "workspace")
    try #require(state.status == 0, "state said: \(state.error)")
    #expect(
      try InspectReplayProperties.json(String(decoding: whatIf, as: UTF8.self)) == InspectReplayProperties.json(state.output),
      "seed \(seed), without \(leftOut.sorted()):\nwhat if \(String(decoding: whatIf, as: UTF8.self))\ndaemon  \(state.output)")
  }

  /// The time the app saw an entry's action at: the `at` its action carries (when it was typed:
  /// `concord send` says so), else the entry's own.
  static func appTime(of record: LogRecord) -> Date {
    guard case let .object(outer)? = try? JSONValue(parsing: record.action), let inner = outer.values.first,
      case let .object(fields) = inner, case let .string(at)? = fields["at"], let date = try? JSONDate.date(from: at)
    else { return record.at }
    return date
  }

  /// Boots Workspace's daemon host on a fresh home and gives it `entries` as the first daemon
  /// met them: its boot at the boot's time, each sent action (`actions`, by seq) from a window
  /// of this account at the time it was logged. The daemon's other entries (fed back) it makes itself.
  ///
  /// - Returns: the home, and whether each sent action was applied.
  static func daemon(sending entries: [LogEntry], actions: [Int64: (scope: String, json: String)]) async throws -> (home: URL, sentOutcomes: [Bool]) {
    let home = DaemonUnderTest.makeHome()
    let log = try ActionLog.open(at: ConcordHome(home).log, key: .file(ConcordHome(home).key))
    let app = Workspace.hosted()
    let clock = Mutex(Date(timeIntervalSince1970: 0))
    let logger = Logger(label: "second daemon")
    let host = DaemonHost(
      app: app, log: log, booted: try app.boot(from: log, logger: logger), snapshotInterval: 1_000_000, logger: logger,
      wallClock: { clock.withLock { $0 } }, onFatal: { Issue.record("the second daemon stopped: \($0)") })
    let window = Connection(id: "w", peer: PeerCredentials(pid: 1, uid: getuid(), gid: getgid()), close: {})
    // A command's connection, as `concord send`'s: no presence entries.
    window.announcesPresence = false
    _ = await host.welcome(for: window)
    var attached: Set<String> = []
    var cseq: Int64 = 0
    var outcomes: [Bool] = []
    for entry in entries {
      clock.withLock { $0 = Self.appTime(of: entry.record) }
      if entry.record.client == LogRecord.daemonClient {
        // The boot is the host's start; what the daemon fed back follows its cause by itself.
        if entry.record.scope.isEmpty, entry.seq == entries.first?.seq { await host.start() }
        continue
      }
      let action = try #require(actions[entry.seq])
      if attached.insert(action.scope).inserted {
        await host.handle(.attach(scope: action.scope, since: nil), from: window)
      }
      cseq += 1
      await host.handle(.send(scope: action.scope, action: try JSONValue(parsing: action.json), client: "second", cseq: cseq), from: window)
      var logged: LogEntry?
      for _ in 0..<1000 where logged == nil {
        logged = try log.entry(client: "second", cseq: cseq)
        if logged == nil { try await Task.sleep(for: .milliseconds(2)) }
      }
      outcomes.append(try #require(logged, "the second daemon did not log \(entry.record.action)").record.outcome.isApplied)
    }
    await host.drain()
    try log.close()
    return (home, outcomes)
  }
}
