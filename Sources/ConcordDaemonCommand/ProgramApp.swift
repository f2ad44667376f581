import ConcordApp
import ConcordLog
import ConcordReplay
import ConcordServer
import ConcordWire
import Foundation
import Logging
import ServiceLifecycle

/// One app a program speaks: how the daemon hosts it, how windows show and type its scopes, and
/// how its state is rebuilt from its log — the one `HostedApp` behind all three.
///
/// ```swift
/// ProgramApp(ShopList.hosted, windows: ShopList.windows)   // its own look
/// ProgramApp(ShopList.hosted)                               // generic windows for every scope
/// ```
public struct ProgramApp: Sendable {
  /// The word that chooses it (`--app NAME`, `CONCORD_APP`): the app's name in lower case
  /// unless given.
  public let name: String
  /// The app's name, as its log records it (`Workspace`).
  public let appName: String
  /// How windows show its scopes and read what people type there: made the first time it is
  /// asked for, so that the daemon, which never shows a window, does not pay for it at start.
  public var client: ClientApp { windows.value }
  private let windows: Lazy<ClientApp>
  /// How people name the app's scopes (`board`, `card:ID`): one spelling everywhere.
  package let scopeUsages: [String]
  /// The state (or one scope of it) as of a seq, rebuilt from the log.
  package let stateJSON: @Sendable (_ at: Int64?, _ log: ActionLog, _ scope: String?) throws -> (json: JSONValue, seq: Int64)
  /// The log's inspection: entries in the app's words, what each changed, "what if".
  package let inspector: LogInspector
  /// The daemon that hosts it.
  let daemon: @Sendable (DaemonConfiguration, Logger) -> any Service

  /// - Parameters:
  ///   - app: the app as the daemon hosts it.
  ///   - windows: how windows show the scopes the app gives a look of its own (renderers and
  ///     words); every other scope gets a generic window: its state as an outline, actions
  ///     typed as JSON.
  ///   - name: the word that chooses it among a program's apps (default: the app's name in
  ///     lower case).
  public init<State: Codable & Sendable, Action: Codable & Sendable>(
    _ app: HostedApp<State, Action>, windows: @autoclosure @escaping @Sendable () -> [WindowScope] = [], name: String? = nil
  ) {
    self.init(app, client: ClientApp(hosting: app, scopes: windows()), name: name)
  }

  /// An app whose windows are described already (`ClientApp(hosting:scopes:)`).
  public init<State: Codable & Sendable, Action: Codable & Sendable>(
    _ app: HostedApp<State, Action>, client: @autoclosure @escaping @Sendable () -> ClientApp, name: String? = nil
  ) {
    self.name = name ?? app.name.lowercased()
    appName = app.name
    windows = Lazy(client)
    scopeUsages = app.scopes.map(\.usage)
    stateJSON = { at, log, scope in
      let (state, seq) = try app.state(at: at, from: log)
      return (try scope.map { try app.scopeJSON($0, of: state) } ?? JSONValue(encoding: state), seq)
    }
    inspector = LogInspector(app)
    daemon = { configuration, logger in ConcordDaemon(app: app, configuration: configuration, logger: logger) }
  }

  /// The scopes, for help: `The scopes: board, column:NAME, card:ID, …`
  package var scopeLine: String { "The scopes: \(scopeUsages.joined(separator: ", "))." }

  /// The app this run speaks: the one `CONCORD_APP` names, else the program's first.
  package static var current: ProgramApp { DaemonProgram.running.app(named: ProcessInfo.processInfo.environment["CONCORD_APP"]) }

  /// How windows show `scope` (`board`, `card:42`); a usage error naming the scopes when the
  /// app has none by that name.
  package func window(for scope: String) throws -> WindowScope {
    let name = scope.split(separator: ":").first.map(String.init) ?? scope
    guard let window = client.scope(named: name) else {
      throw CommandFailure.usage("no scope \"\(name)\"; the scopes are \(scopeUsages.joined(separator: ", "))")
    }
    return window
  }

  /// The action a person typed for `scope` on the command line, as JSON or in the scope's
  /// words; a usage error saying what is wrong with it, and pointing to `PROGRAM words SCOPE`
  /// (not a window's `help`) where the scope's list of words mends it.
  ///
  /// - Parameters:
  ///   - text: the action as typed.
  ///   - scope: the scope it is for (`board`, `card:1`).
  ///   - program: the command people type (`concord`), to name in the pointer.
  package func action(typed text: String, in scope: String, program: String) throws -> JSONValue {
    do {
      return try window(for: scope).action(typed: text, in: scope)
    } catch let error as CommandError {
      throw CommandFailure.usage(error.described(listedBy: "`\(program) words \(scope)`"))
    }
  }
}
