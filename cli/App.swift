import ConcordClient
import ConcordLog
import ConcordApp
import ConcordReplay
import ConcordWire
import Foundation
import SampleApp
import Workspace
import WorkspaceWindows

/// An app this build of `concord` speaks: its scopes' renderers and words, and its reducer for
/// rebuilding states from the log. The same app `concordd` hosts, chosen the same way: the
/// CONCORD_APP environment variable, `workspace` unless it says `sample`.
struct BundledApp: Sendable {
  let client: ClientApp
  /// How people name the app's scopes (`board`, `card:ID`): one spelling everywhere.
  let scopeUsages: [String]
  /// The state (or one scope of it) as of a seq, rebuilt from the log.
  let stateJSON: @Sendable (_ at: Int64?, _ log: ActionLog, _ scope: String?) throws -> (json: JSONValue, seq: Int64)

  init<State: Codable & Sendable, Action: Codable & Sendable>(_ hosted: HostedApp<State, Action>, client: ClientApp) {
    self.client = client
    scopeUsages = hosted.scopes.map(\.usage)
    stateJSON = { at, log, scope in
      let (state, seq) = try hosted.state(at: at, from: log)
      return (try scope.map { try hosted.scopeJSON($0, of: state) } ?? JSONValue(encoding: state), seq)
    }
  }

  /// The scopes, for help: `The scopes: board, column:NAME, card:ID, …`
  var scopeLine: String { "The scopes: \(scopeUsages.joined(separator: ", "))." }

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
      throw CommandFailure.usage("no scope \"\(name)\"; the scopes are \(BundledApp.current.scopeUsages.joined(separator: ", "))")
    }
    return window
  }
}
