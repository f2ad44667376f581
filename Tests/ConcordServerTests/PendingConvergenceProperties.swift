import ConcordApp
import ConcordClient
import ConcordLog
import ConcordPlatform
import ConcordWire
import DaemonDriving
import Foundation
import PropertyRandom
import Testing
import Workspace
import WorkspaceWindows

/// Windows show every action the moment it is typed and rebase it on each update of the
/// daemon's; offline too, in windows opened while offline, until the outbox is resent. Whatever
/// the order of typing, the daemon going away and coming back, and windows opening: once
/// everything is answered, each window shows exactly the state the daemon's log holds for its
/// scope (`concord state SCOPE`, rebuilt from the log alone, is the model). And every action
/// refused when resent is kept for the home's windows to show.
///
/// Through the real `concordd` and the windows' own sessions (what `concord attach` runs).
@Suite(.serialized) struct PendingConvergenceProperties {
  static let scopes = ["board", "board", "column:todo", "chat:general"]

  @Test func onceEverythingIsAnsweredEveryWindowShowsTheDaemonsState() throws {
    var shownAtOnce = 0
    var offlineActions = 0
    var refusedOnResend = 0
    for seed in PropertyRandom.seeds(from: 0x0FF_11E, count: 4) {
      print("pending convergence case, seed \(seed)")
      var random = PropertyRandom(seed: seed)
      var daemon: DaemonUnderTest? = try DaemonUnderTest(app: "workspace").start()
      let directory = daemon!.home
      defer {
        _ = daemon?.terminate()
        try? FileManager.default.removeItem(at: directory)
      }
      let home = ConcordHome(directory)
      var windows = try Self.scopes.map { try WindowSession(home: home, scope: $0, app: Workspace.client) }
      var resentRefusals = 0
      func pump(_ seconds: Double = 0.05) throws {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
          for window in windows {
            for event in try window.tick() + window.socketReadable() {
              if case .resent(_, .refused, _) = event { resentRefusals += 1 }
            }
          }
          Thread.sleep(forTimeInterval: 0.005)
        } while Date() < deadline
      }
      try pump(0.5)

      for step in 0..<random.int(30...60) {
        let context = "seed \(seed) step \(step)"
        switch random.int(0...99) {
        case 0..<8 where daemon != nil:
          _ = daemon!.terminate()
          daemon = nil
        case 8..<16 where daemon == nil:
          daemon = try DaemonUnderTest(home: directory, app: "workspace").start()
        case 16..<22:
          // A window closes and another opens on its scope: offline, it shows what waits.
          let index = random.int(0...windows.count - 1)
          windows[index] = try WindowSession(home: home, scope: Self.scopes[index], app: Workspace.client)
        default:
          let window = random.pick(windows)
          guard window.readShown() != nil else { break }
          let names = Self.state(seenBy: windows)
          let action = WorkspaceReplayProperties.action(&random, for: window.scope, in: names)
          let sent = try window.submit(action)
          if !window.isConnected { offlineActions += 1 }
          // Shown at once: pending, and applied on the state shown unless the app refuses it.
          let shown = try #require(window.readShown(), "\(context)")
          #expect(shown.pending.contains { $0.cseq == sent.cseq } || !window.hasUnanswered && window.isConnected, "\(context)")
          if shown.pending.contains(where: { $0.cseq == sent.cseq }), shown.refusals[sent.cseq] == nil, shown.state != shown.confirmed {
            shownAtOnce += 1
          }
        }
        try pump()
      }

      if daemon == nil { daemon = try DaemonUnderTest(home: directory, app: "workspace").start() }
      // Everything answered: the windows show what the daemon's log holds.
      let deadline = Date().addingTimeInterval(30)
      var mismatch: String?
      repeat {
        try pump(0.2)
        mismatch = try Self.mismatch(of: windows, home: directory)
      } while mismatch != nil && Date() < deadline
      #expect(mismatch == nil, "seed \(seed): \(mismatch ?? "")")
      // Every action refused when resent is kept for the home's windows, until dismissed.
      let kept = try Outbox.open(home: home).refusedOnResend()
      #expect(kept.count == min(resentRefusals, Outbox.refusedLimit), "seed \(seed)")
      refusedOnResend += resentRefusals
    }
    print("pending convergence: \(shownAtOnce) actions shown at once, \(offlineActions) typed offline, \(refusedOnResend) refused on replay")
    if PropertyRandom.replayed == nil {
      #expect(shownAtOnce > 20)
      #expect(offlineActions > 10)
    }
  }

  /// Why the windows do not show the daemon's state yet, or nil when they all do.
  static func mismatch(of windows: [WindowSession], home: URL) throws -> String? {
    for window in windows {
      guard window.isConnected else { return "\(window.scope) is not connected" }
      if window.hasUnanswered { return "\(window.scope) awaits answers" }
      if window.readWaitingCount() > 0 { return "\(window.readWaitingCount()) actions wait in the outbox" }
      let state = try ConcordCLI.run(["state", window.scope], home: home, app: "workspace")
      // A column renamed or removed: the daemon sends a window on it null, and keeps it attached.
      let gone = state.status != 0 && state.error.contains("names nothing")
      guard state.status == 0 || gone else { return "concord state \(window.scope): \(state.error)" }
      let daemon = gone ? .null : try JSONValue(parsing: state.output.trimmingCharacters(in: .whitespacesAndNewlines))
      guard window.readShown()?.state == daemon else {
        return "\(window.scope) shows \(window.readShown()?.state.jsonText ?? "nothing"), the log holds \(daemon.jsonText)"
      }
    }
    return nil
  }

  /// The cards, columns, people and channels the windows show, for the actions to name.
  static func state(seenBy windows: [WindowSession]) -> Workspace.State {
    var state = Workspace.State()
    for window in windows {
      guard let shown = window.readShown()?.state else { continue }
      if window.scope == "board", let view = try? shown.decode(BoardView.self) { view.lift(into: &state) }
    }
    for window in windows where window.scope.hasPrefix("chat:") {
      if let view = try? window.readShown()?.state.decode(ChannelView.self) { view.lift(into: &state) }
    }
    return state
  }
}
