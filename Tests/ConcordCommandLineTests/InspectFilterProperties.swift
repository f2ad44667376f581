import Concord
import ConcordApp
import ConcordJSON
import ConcordLog
import ConcordReplay
import DaemonDriving
import Foundation
import PropertyRandom
import SampleApp
import Testing

/// `concord inspect`'s filters, held to a model written from its `--help`: a person exactly, a
/// scope exactly or every scope a prefix ending in a colon begins, applied or refused, at or
/// after `--since` and before `--until`, and text in the action (any case; the sample app has
/// no words of its own). The inspector skips what it can by the records alone and rebuilds
/// states only from the first entry that may pass, so the logs have snapshots to start from.
@Suite(.serialized) struct InspectFilterProperties {
  struct Written {
    var seq: Int
    var user: String
    var scope: String
    var action: String
    var applied: Bool
    var at: Date
  }

  /// A log of `count` entries by alice, bob and carol (carol rarely), a second apart, with a
  /// snapshot every ten entries, as the daemon keeps them.
  static func writeLog(count: Int, in home: URL, _ random: inout PropertyRandom) throws -> [Written] {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let log = try ActionLog.open(at: home.appending(path: "log.sqlite"), key: .file(home.appending(path: "key")))
    let app = SampleApp.hosted
    var state = app.initialState
    var written: [Written] = []
    for index in 0..<count {
      let (scope, json): (String, String) = random.pick([
        ("counter", #"{"increment":{}}"#), ("counter", #"{"decrement":{}}"#),
        ("notes", #"{"add":{"text":"Note \#(random.int(0...9))"}}"#), ("notes", #"{"remove":{"id":\#(random.int(1...3))}}"#),
      ])
      let logged = #"{"\#(scope)":\#(json)}"#
      let action = try JSONValue(parsing: logged).decode(SampleApp.Action.self)
      let refusal = Reduction.reduce(action, into: &state) { SampleApp.reducer.reduce(into: &$0, action: $1, environment: ()) }.refusal
      let user = random.int(0...9) == 0 ? "carol" : random.pick(["alice", "bob"])
      let at = start.addingTimeInterval(Double(index))
      try log.append([
        LogRecord(
          client: "w-\(user)", cseq: Int64(index + 1), at: at, user: user, scope: scope, action: logged,
          outcome: refusal.map { .refused(reason: $0.reason) } ?? .applied, app: app.name, appVersion: app.version)
      ])
      written.append(Written(seq: index + 1, user: user, scope: scope, action: logged, applied: refusal == nil, at: at))
      if (index + 1) % 10 == 0 { try log.saveSnapshot(state, at: Int64(index + 1), by: app.appVersion) }
    }
    try log.close()
    return written
  }

  @Test(arguments: [UInt64(41), 42])
  func filtersShowExactlyTheEntriesTheirHelpDescribes(seed: UInt64) throws {
    var random = PropertyRandom(seed: PropertyRandom.replayed ?? seed)
    let home = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let log = try Self.writeLog(count: 75, in: home, &random)
    let start = log[0].at

    for _ in 0..<14 {
      var arguments: [String] = []
      var tests: [(Written) -> Bool] = []
      if random.int(0...2) == 0 {
        let user = random.pick(["alice", "bob", "carol", "nobody"])
        arguments += ["--user", user]
        tests.append { $0.user == user }
      }
      if random.int(0...2) == 0 {
        let scope = random.pick(["counter", "notes", "note", "count:", "no:"])
        arguments += ["--scope", scope]
        tests.append { scope.hasSuffix(":") ? $0.scope.hasPrefix(scope) : $0.scope == scope }
      }
      if random.int(0...2) == 0 {
        let applied = random.int(0...1) == 0
        arguments += ["--outcome", applied ? "applied" : "refused"]
        tests.append { $0.applied == applied }
      }
      if random.int(0...2) == 0 {
        let since = start.addingTimeInterval(Double(random.int(0...80)))
        arguments += ["--since", try JSONDate.text(since)]
        tests.append { $0.at >= since }
      }
      if random.int(0...3) == 0 {
        let until = start.addingTimeInterval(Double(random.int(0...80)))
        arguments += ["--until", try JSONDate.text(until)]
        tests.append { $0.at < until }
      }
      if random.int(0...3) == 0 {
        let text = random.pick(["NOTE 3", "incr", "remove", "zzz"])
        arguments += ["--text", text]
        tests.append { $0.action.lowercased().contains(text.lowercased()) }
      }
      let shown = try ConcordCLI.run(["inspect", "--json"] + arguments, home: home)
      try #require(shown.status == 0, "inspect \(arguments) said: \(shown.error)")
      let seqs = try InspectReplayProperties.objects(shown.output).compactMap { $0["seq"] as? Int }
      let expected = log.filter { entry in tests.allSatisfy { $0(entry) } }.map(\.seq)
      #expect(seqs == expected, "seed \(seed), inspect \(arguments)")
    }
  }
}
