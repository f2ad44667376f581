import ConcordLog
import ConcordPlatform
import ConcordWire
import Foundation
import PropertyRandom
import SampleApp
import Testing

@testable import ConcordServer

#if canImport(Glibc)
import Glibc
#endif

/// What everyone who uses the daemon relies on: the log *is* the state. Whatever people did —
/// actions applied and refused, retries, actions that are not actions, windows coming and
/// going, effects landing later, restarts — rebuilding the state from the log the way the
/// daemon boots gives exactly the state the daemon had, at every seq it had one, from whichever
/// snapshot is newest. And every window shows what that state shows.
///
/// Each case has a seed, printed in every failure; `CONCORD_PROPERTY_SEED=<seed>` runs that case
/// alone. (The script of a case is the seed's; how the daemon batches commits and when effects
/// land is the machine's.)
@Suite struct ReplayProperties {
  typealias Run = HostedRun<SampleApp.State, SampleApp.Action>

  @Test func replayingTheLogGivesTheStateTheDaemonHadAtEverySeq() async throws {
    var total = Run.Report()
    for seed in PropertyRandom.seeds(from: 0x2E91_A000, count: 30) {
      // Before the case: a crash (in the app's code, say) would leave no failure to print it.
      print("replay case, seed \(seed)")
      var random = PropertyRandom(seed: seed)
      let run = try await Run(
        app: SampleApp.hosted, snapshotInterval: Int64(random.int(1...10)), peers: PeerCredentials.twoPeople,
        label: "seed \(seed)")
      defer { run.removeHome() }
      for _ in 0..<random.int(25...60) { try await Self.step(&random, run) }
      total += try await run.finish()
    }
    print("replay properties: \(total.summary)")
    // The cases do reach what the property is about.
    if PropertyRandom.replayed == nil {
      #expect(total.refusedEntries > 50, "refused entries: \(total.refusedEntries) of \(total.entries)")
      #expect(total.bootsFromSnapshot > 10, "boots that started from a snapshot: \(total.bootsFromSnapshot)")
      #expect(total.restarts > 10)
      #expect(total.replayedStates > 400)
      #expect(total.viewsChecked > 50)
    }
  }

  // MARK: - What people do

  static func step(_ random: inout PropertyRandom, _ run: Run) async throws {
    let window = random.int(0...run.windows.count - 1)
    switch random.int(0...99) {
    case 0..<14:
      await run.attach(window, scope(&random, in: run.state), since: random.chance(60))
    case 14..<20:
      if let scope = run.windows[window].views.keys.sorted().first(where: { _ in random.chance(50) }) {
        await run.detach(window, scope)
      }
    case 20..<23:
      try await run.restart()
    case 23..<30:
      // A window that did not see its answer sends the action again, same (client, cseq).
      if !run.sent.isEmpty { await run.retry(run.sent[random.int(0...run.sent.count - 1)]) }
    default:
      // A burst: sent one after the other without waiting, committed together. Now and then
      // one is sent twice, the second time while the first is on its way to the log.
      for _ in 0..<random.int(1...4) {
        let sender = random.int(0...run.windows.count - 1)
        if run.windows[sender].views.isEmpty { await run.attach(sender, "counter", since: false) }
        let scopes = run.windows[sender].views.keys.sorted()
        guard !scopes.isEmpty else { continue }
        let scope = random.pick(scopes)
        await run.send(sender, scope: scope, action: action(&random, for: scope, in: run.state))
        if random.chance(15) { await run.retry(run.sent.last!) }
      }
    }
    await run.settle()
  }

  /// A scope to attach: mostly one that exists, sometimes a note that does not, or no scope.
  static func scope(_ random: inout PropertyRandom, in state: SampleApp.State) -> String {
    let ids = state.notes.map(\.id)
    let note = !ids.isEmpty && random.chance(80) ? random.pick(ids) : random.int(0...state.nextNoteID + 1)
    return random.pick(["counter", "counter", "notes", "notes", "presence", "note:\(note)", "note:\(note)", "note:x", "nope"])
  }

  /// An action for `scope`, as a window sends it: many are refused by the app, and some are not
  /// actions of the scope at all (the daemon turns them away without logging them).
  static func action(_ random: inout PropertyRandom, for scope: String, in state: SampleApp.State) -> JSONValue {
    if random.chance(4) { return ["warp": [:]] }
    let ids = state.notes.map(\.id)
    let id = Double(!ids.isEmpty && random.chance(70) ? random.pick(ids) : random.int(0...state.nextNoteID + 1))
    switch scope {
    case "counter":
      return random.pick([
        ["increment": [:]], ["decrement": [:]], ["decrement": [:]], ["add": ["amount": .number(Double(random.int(-3...5)))]],
      ])
    case "notes":
      return random.pick([
        ["add": ["text": .string(random.pick(["milk", "eggs", "oat milk", ""]))]], ["remove": ["id": .number(id)]],
        ["addLater": ["text": "later", "milliseconds": .number(Double(random.int(0...3)))]],
      ])
    case "presence":
      return ["clear": [:]]
    default:
      return random.pick([["edit": ["text": .string(random.pick(["bread", "", "rye bread"]))]], ["toggle": [:]]])
    }
  }
}
