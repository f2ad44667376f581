import ArgumentParser
import ConcordApp
import ConcordClient
import ConcordDaemonCommand
import ConcordPlatform
import ConcordWire
import Foundation

/// An app on Concord as one program with every command: the daemon (`daemon run`, or `start`,
/// `stop` and `status` in the background), live windows (`attach`), `send`, `state [--at]`,
/// `words`, the log (`export`, `verify`, `tail`), the outbox, SSH (`dial-stdio`, `relay`) and
/// shell completions — the words, exit codes and files of `concord`, for your reducer.
///
/// ```swift
/// import ConcordCommandLine
///
/// @main enum Main {
///   static func main() { ConcordProgram(name: "shoplist", app: ShopList.hosted, windows: ShopList.windows).run() }
/// }
/// ```
///
/// Then `shoplist daemon start`, `shoplist attach list`, `shoplist send list 'add milk 2'`.
public struct ConcordProgram: Sendable {
  /// How `daemon start` runs the daemon in the background.
  public enum DaemonLaunch: Sendable, Equatable {
    /// This program, as `NAME daemon run`.
    case subcommand
    /// Another executable, found beside this one (else on the PATH), whose root command is
    /// `daemon run` (a `DaemonProgram` of `ConcordDaemonCommand`): how `concord` starts
    /// `concordd`.
    case executable(String)
  }

  /// The command people type (`shoplist`): in help, in messages that say what to run, run by
  /// ssh on a daemon's machine, and the default home's name (`~/.local/state/NAME`).
  public let name: String
  /// The apps it speaks; the first unless `--app`/`CONCORD_APP` names another.
  public let apps: [ProgramApp]
  /// How `daemon start` runs the daemon: this program's own `daemon run`, or another
  /// executable's.
  public let daemonLaunch: DaemonLaunch
  /// One line on what the program is for, atop its `--help`.
  public let abstract: String
  /// What `--version` prints; the daemon this program runs reports the same version.
  public let version: String

  /// A program for one app.
  ///
  /// - Parameters:
  ///   - name: the command people type.
  ///   - app: the app as the daemon hosts it.
  ///   - windows: how windows show the scopes the app gives a look of its own; the others get
  ///     generic windows (their state as an outline, actions typed as JSON).
  ///   - version: what `--version` prints.
  public init<State: Codable & Sendable, Action: Codable & Sendable>(
    name: String, app: HostedApp<State, Action>, windows: @autoclosure @escaping @Sendable () -> [WindowScope] = [],
    version: String = "0.1.0"
  ) {
    self.init(
      name: name, apps: [ProgramApp(app, windows: windows())],
      abstract: "\(app.name) on Concord: its daemon, live windows, actions and the audit of its log.", version: version)
  }

  /// A program for several apps, the first by default.
  ///
  /// ```swift
  /// ConcordProgram(
  ///   name: "concord", apps: BundledApps.all, daemonLaunch: .executable("concordd"),
  ///   abstract: "Attach windows to a Concord daemon, send actions, and audit its log."
  /// ).run()
  /// ```
  ///
  /// - Parameters:
  ///   - name: the command people type.
  ///   - apps: the apps it speaks (each a `ProgramApp`), the first unless `--app` or
  ///     `CONCORD_APP` names another.
  ///   - daemonLaunch: how `daemon start` runs the daemon.
  ///   - abstract: one line on what the program is for, atop its `--help`.
  ///   - version: what `--version` prints.
  public init(
    name: String, apps: [ProgramApp], daemonLaunch: DaemonLaunch = .subcommand, abstract: String, version: String = "0.1.0"
  ) {
    precondition(!apps.isEmpty, "a program speaks at least one app")
    self.name = name
    self.apps = apps
    self.daemonLaunch = daemonLaunch
    self.abstract = abstract
    self.version = version
  }

  /// The program running in this process, set by ``run()`` before any command is parsed.
  nonisolated(unsafe) static var running = ConcordProgram(name: "concord", apps: [], abstract: "", unchecked: ())

  private init(name: String, apps: [ProgramApp], abstract: String, unchecked: Void) {
    (self.name, self.apps, self.daemonLaunch, self.abstract, self.version) = (name, apps, .subcommand, abstract, "0.1.0")
  }

  /// Runs the command on the command line, and exits with the README's exit codes: 0 success,
  /// 1 failure, 2 usage error, 3 daemon unreachable.
  public func run() -> Never {
    Self.running = self
    ProgramName.current = name
    DaemonProgram.running = DaemonProgram(
      invocation: "\(name) daemon run", home: name, apps: apps, version: version, isRoot: false)
    // A signal mask inherited from the parent (a test runner, a supervisor) would keep SIGHUP
    // and SIGTERM from reaching a window whose terminal closes: start with none blocked.
    var none = sigset_t()
    sigemptyset(&none)
    pthread_sigmask(SIG_SETMASK, &none, nil)
    ProgramCommand.runAndExit(as: name) { error in
      (error as? ClientError ?? (error as? UnixSocketError).map(ClientError.init)).map(CommandFailure.init)
    }
  }

  /// The daemon's own executable when it is not this program (`concordd`).
  var daemonCommand: String? {
    if case let .executable(name) = daemonLaunch { name } else { nil }
  }
}
