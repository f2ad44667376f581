import Concord
import ConcordJSON
import ConcordLog
import DaemonDriving
import Foundation
import PropertyRandom
import SampleApp
import Testing

/// What `concord inspect` rebuilds, held to what a daemon does without it: the state it shows
/// as of an entry is `concord state --at` for that entry, and its "what if" is the state, the
/// refusals and the applications a second daemon reaches when it is sent every action but those
/// left out — an independent replay, by the real binary, not the inspector's own code.
@Suite(.serialized) struct InspectReplayProperties {
  /// A sample-app action as its schema spells it (schema/sample-app.schema.json): the scope it
  /// is sent to and its JSON. Chosen so that many are refused, and leaving one out changes
  /// what later ones meet: decrements at zero, notes removed or edited that may not exist.
  static func randomAction(_ random: inout PropertyRandom) -> (scope: String, json: String) {
    switch random.int(0...7) {
    case 0, 1: return ("counter", #"{"increment":{}}"#)
    case 2: return ("counter", #"{"decrement":{}}"#)
    case 3: return ("counter", #"{"add":{"amount":\#(random.int(-3...3))}}"#)
    case 4: return ("notes", #"{"add":{"text":"note \#(random.int(0...99))"}}"#)
    case 5: return ("notes", #"{"remove":{"id":\#(random.int(1...4))}}"#)
    case 6: return ("note:\(random.int(1...4))", #"{"edit":{"text":"edited \#(random.int(0...99))"}}"#)
    default: return ("note:\(random.int(1...4))", #"{"toggle":{}}"#)
    }
  }

  /// Sends each action with `concord send`: whether the daemon applied it, and whether it
  /// logged it (an action for a scope that names nothing, `note:4` with no note 4, is refused
  /// before it is reduced, and not logged).
  static func send(_ actions: [(scope: String, json: String)], to home: URL) throws -> [(applied: Bool, logged: Bool)] {
    try actions.map { action in
      let sent = try ConcordCLI.run(["send", action.scope, action.json], home: home)
      try #require(sent.status == 0 || sent.status == 1, "concord send said: \(sent.error)")
      return (sent.status == 0, !sent.error.contains("names nothing in the state"))
    }
  }

  static func objects(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not an object: \(line)")
    }
  }

  static func json(_ text: String) throws -> NSObject {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed) as? NSObject)
  }

  @Test(arguments: [UInt64(1), 2, 3])
  func whatIfIsWhatADaemonReachesWithoutThoseEntries(seed: UInt64) throws {
    var random = PropertyRandom(seed: PropertyRandom.replayed ?? seed)
    let actions = (0..<18).map { _ in Self.randomAction(&random) }
    let original = try DaemonUnderTest().start()
    let sentThen = try Self.send(actions, to: original.home)
    // Only the logged ones are entries; a "what if" leaves out entries.
    let logged = actions.indices.filter { sentThen[$0].logged }
    let appliedThen = logged.map { sentThen[$0].applied }

    // The entries of the sends, in order (the daemon's own, such as its boot, left aside).
    let listed = try ConcordCLI.run(["inspect", "--json"], home: original.home)
    try #require(listed.status == 0, "inspect said: \(listed.error)")
    let entries = try Self.objects(listed.output).filter { ($0["client"] as? String) != "concordd" }
    try #require(entries.count == logged.count, "\(entries.count) entries for \(logged.count) logged sends")
    for (entry, applied) in zip(entries, appliedThen) {
      #expect((entry["outcome"] as? String) == (applied ? "applied" : "refused"), "\(entry)")
    }

    // The state as of any entry is what `state --at` rebuilds.
    for entry in entries.shuffled(using: &random).prefix(4) {
      let seq = try #require(entry["seq"] as? Int)
      let shown = try Self.objects(ConcordCLI.run(["inspect", "--show", String(seq), "--whole-state", "--json"], home: original.home).output)
      let after = try JSONSerialization.data(withJSONObject: try #require(shown.first?["after"]), options: .fragmentsAllowed)
      let state = try ConcordCLI.run(["state", "--at", String(seq)], home: original.home)
      #expect(try Self.json(String(decoding: after, as: UTF8.self)) == Self.json(state.output), "entry \(seq)")
    }

    // Leave out one to three of them, and ask.
    let leftOut = Set((0..<random.int(1...3)).map { _ in random.int(0...(entries.count - 1)) })
    let seqs = leftOut.sorted().map { entries[$0]["seq"] as! Int }
    let asked = try ConcordCLI.run(["inspect", "--json"] + seqs.flatMap { ["--without", String($0)] }, home: original.home)
    try #require(asked.status == 0, "inspect said: \(asked.error)")
    let answer = try #require(try Self.objects(asked.output).first)

    // A daemon that never saw them.
    let fresh = try DaemonUnderTest().start()
    // The entries kept, by their place among the entries; each one's action sent again.
    let kept = entries.indices.filter { !leftOut.contains($0) }
    let appliedNow = try Self.send(kept.map { actions[logged[$0]] }, to: fresh.home).map(\.applied)
    let nowRefused = zip(kept, appliedNow).filter { appliedThen[$0.0] && !$0.1 }.map { entries[$0.0]["seq"] as! Int }
    let nowApplied = zip(kept, appliedNow).filter { !appliedThen[$0.0] && $0.1 }.map { entries[$0.0]["seq"] as! Int }

    let refused = (answer["refused"] as? [[String: Any]] ?? []).map { ($0["entry"] as? [String: Any])?["seq"] as? Int }
    let applied = (answer["applied"] as? [[String: Any]] ?? []).map { $0["seq"] as? Int }
    #expect(refused == nowRefused.map(Optional.some), "seed \(seed): refused \(refused), the daemon refused \(nowRefused)")
    #expect(applied == nowApplied.map(Optional.some), "seed \(seed): applied \(applied), the daemon applied \(nowApplied)")
    #expect((answer["left_out"] as? [Int]) == seqs, "\(answer["left_out"] ?? "nothing")")
    let whatIfState = try JSONSerialization.data(withJSONObject: try #require(answer["state"]))
    let freshState = try ConcordCLI.run(["state"], home: fresh.home)
    #expect(
      try Self.json(String(decoding: whatIfState, as: UTF8.self)) == Self.json(freshState.output),
      "seed \(seed): what if \(String(decoding: whatIfState, as: UTF8.self))\ndaemon \(freshState.output)")
  }
}

extension InspectReplayProperties {
  /// The state as of every entry of a Workspace session, which the inspector rebuilds from the
  /// nearest snapshot and `state --at` from the boot's path (its "what if" is held to a second
  /// daemon in InspectWorkspaceWhatIfProperties).
  @Test func aWorkspaceStateAsOfAnEntryIsStateAt() throws {
    var random = PropertyRandom(seed: PropertyRandom.replayed ?? 7)
    let daemon = try DaemonUnderTest(app: "workspace").start()
    for _ in 0..<16 {
      let card = random.int(1...5)
      let (scope, words) = random.pick([
        ("board", "add Card \(random.int(0...99))"), ("board", "move \(card) \(random.pick(["todo", "doing", "done"]))"),
        ("board", "edit \(card) Renamed \(random.int(0...9))"), ("chat:general", "said \(random.int(0...99))"),
        ("board", "undo"),
      ])
      let sent = try ConcordCLI.run(["send", scope, words], home: daemon.home, app: "workspace")
      try #require([0, 1].contains(sent.status), "concord send \(scope) \(words) said: \(sent.error)")
    }
    let listed = try Self.objects(ConcordCLI.run(["inspect", "--json"], home: daemon.home, app: "workspace").output)
    try #require(listed.count >= 16, "\(listed.count) entries")
    // The app's words name what each applied board action did.
    let words = listed.filter { ($0["scope"] as? String) == "board" && ($0["outcome"] as? String) == "applied" }.compactMap { $0["words"] as? String }
    #expect(!words.isEmpty && words.allSatisfy { !$0.hasPrefix("{") }, "\(words)")
    for entry in listed {
      let seq = try #require(entry["seq"] as? Int)
      let shown = try Self.objects(
        ConcordCLI.run(["inspect", "--show", String(seq), "--whole-state", "--json"], home: daemon.home, app: "workspace").output)
      let after = try JSONSerialization.data(withJSONObject: try #require(shown.first?["after"]), options: .fragmentsAllowed)
      let state = try ConcordCLI.run(["state", "--at", String(seq)], home: daemon.home, app: "workspace")
      #expect(try Self.json(String(decoding: after, as: UTF8.self)) == Self.json(state.output), "entry \(seq)")
    }
  }
}

extension InspectReplayProperties {
  /// "What if mallory had done nothing from then on": on a log where two people took turns,
  /// the answer is what a daemon reaches when it is sent everything but mallory's actions from
  /// that time — her earlier ones included.
  @Test(arguments: [UInt64(11), 12])
  func whatIfAPersonHadStoppedIsADaemonSentTheRest(seed: UInt64) throws {
    var random = PropertyRandom(seed: PropertyRandom.replayed ?? seed)
    let home = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: home) }
    // Counter and notes actions only: their scopes always exist, so every send is logged.
    let actions: [(user: String, scope: String, json: String)] = (0..<16).map { _ in
      let action = Self.randomAction(&random)
      let kept = action.scope.hasPrefix("note:") ? ("counter", #"{"decrement":{}}"#) : action
      return (random.pick(["alice", "mallory"]), kept.0, kept.1)
    }
    // The log as the sample app's daemon writes it, each action alice's or mallory's, a second apart.
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let log = try ActionLog.open(at: home.appending(path: "log.sqlite"), key: .file(home.appending(path: "key")))
    var state = SampleApp.hosted.initialState
    var records: [LogRecord] = []
    for (index, action) in actions.enumerated() {
      let logged = #"{"\#(action.scope)":\#(action.json)}"#
      let decoded = try JSONValue(parsing: logged).decode(SampleApp.Action.self)
      let refusal = Reduction.reduce(decoded, into: &state) { SampleApp.reducer.reduce(into: &$0, action: $1, environment: ()) }.refusal
      records.append(
        LogRecord(
          client: "w-\(action.user)", cseq: Int64(index + 1), at: start.addingTimeInterval(Double(index)), user: action.user,
          scope: action.scope, action: logged, outcome: refusal.map { .refused(reason: $0.reason) } ?? .applied,
          app: SampleApp.hosted.name, appVersion: SampleApp.hosted.version))
    }
    try log.append(records)
    try log.close()

    let from = random.int(0...8)
    let asked = try ConcordCLI.run(
      ["inspect", "--json", "--without-user", "mallory", "--after", try JSONDate.text(start.addingTimeInterval(Double(from)))],
      home: home)
    try #require(asked.status == 0, "inspect said: \(asked.error)")
    let answer = try #require(try Self.objects(asked.output).first)

    let kept = actions.indices.filter { $0 < from || actions[$0].user != "mallory" }
    let fresh = try DaemonUnderTest().start()
    let appliedNow = try Self.send(kept.map { (actions[$0].scope, actions[$0].json) }, to: fresh.home).map(\.applied)
    let appliedThen = records.map(\.outcome.isApplied)
    let nowRefused = zip(kept, appliedNow).filter { appliedThen[$0.0] && !$0.1 }.map { $0.0 + 1 }
    let nowApplied = zip(kept, appliedNow).filter { !appliedThen[$0.0] && $0.1 }.map { $0.0 + 1 }
    let refused = (answer["refused"] as? [[String: Any]] ?? []).compactMap { ($0["entry"] as? [String: Any])?["seq"] as? Int }
    let applied = (answer["applied"] as? [[String: Any]] ?? []).compactMap { $0["seq"] as? Int }
    #expect(refused == nowRefused && applied == nowApplied, "seed \(seed): \(refused) \(applied) vs \(nowRefused) \(nowApplied)")
    #expect((answer["left_out"] as? [Int]) == actions.indices.filter { !kept.contains($0) }.map { $0 + 1 })
    // The daemon's own boot is in its state and not in the written log.
    var whatIf = try #require(answer["state"] as? [String: Any])
    var daemon = try #require(try JSONSerialization.jsonObject(with: Data(try ConcordCLI.run(["state"], home: fresh.home).output.utf8)) as? [String: Any])
    whatIf["boots"] = nil
    daemon["boots"] = nil
    #expect(NSDictionary(dictionary: whatIf) == NSDictionary(dictionary: daemon), "seed \(seed): \(whatIf) vs \(daemon)")
  }
}
