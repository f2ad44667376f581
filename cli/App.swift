import ConcordClient
import ConcordLog
import ConcordApp
import ConcordReplay
import ConcordWire
import Foundation
import SampleApp
import Workspace

/// An app this build of `concord` speaks: its scopes' renderers and words, and its reducer for
/// rebuilding states from the log. The same app `concordd` hosts, chosen the same way: the
/// CONCORD_APP environment variable, `workspace` unless it says `sample`.
struct BundledApp: Sendable {
  let client: ClientApp
  /// The state (or one scope of it) as of a seq, rebuilt from the log.
  let stateJSON: @Sendable (_ at: Int64?, _ log: ActionLog, _ scope: String?) throws -> (json: JSONValue, seq: Int64)

  init<State: Codable & Sendable, Action: Codable & Sendable>(_ hosted: HostedApp<State, Action>, client: ClientApp) {
    self.client = client
    stateJSON = { at, log, scope in
      let (state, seq) = try hosted.state(at: at, from: log)
      return (try scope.map { try hosted.scopeJSON($0, of: state) } ?? JSONValue(encoding: state), seq)
    }
  }

  /// Chosen once, at start.
  static let current: BundledApp = {
    switch ProcessInfo.processInfo.environment["CONCORD_APP"]?.lowercased() {
    case "sample": BundledApp(SampleApp.hosted, client: SampleApp.client)
    default: BundledApp(Workspace.hosted(), client: Workspace.client)
    }
  }()
}

extension ClientApp {
  static var current: ClientApp { BundledApp.current.client }

  /// How windows show `scope` (`board`, `card:42`); a usage error naming the scopes when the
  /// app has none by that name.
  func window(for scope: String) throws -> WindowScope {
    let name = scope.split(separator: ":").first.map(String.init) ?? scope
    guard let window = self.scope(named: name) else {
      throw CommandFailure.usage("no scope \"\(name)\"; the scopes are \(scopes.map(\.name).joined(separator: ", "))")
    }
    return window
  }
}
