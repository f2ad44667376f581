import Foundation

/// The daemon as a program: `daemon run`'s options, hosting one of its apps. It is the root
/// command of a program that is the daemon alone (`concordd`), and `NAME daemon run` in a
/// program built on `ConcordCommandLine`, which sets it up.
///
/// ```swift
/// @main enum Main {
///   static func main() { DaemonProgram(name: "concordd", home: "concord", apps: apps).run() }
/// }
/// ```
public struct DaemonProgram: Sendable {
  /// How the daemon is invoked, in help and messages: `concordd`, or `shoplist daemon run`.
  public let invocation: String
  /// The program whose home it keeps by default (`$XDG_STATE_HOME/NAME`).
  public let home: String
  /// The apps it can host; the first unless `--app`/`CONCORD_APP` names another.
  public let apps: [ProgramApp]
  /// What `--version` prints.
  public let version: String
  /// Whether `daemon run` is this process's root command.
  let isRoot: Bool

  /// A program that is the daemon alone.
  ///
  /// - Parameters:
  ///   - name: the executable's name (`concordd`).
  ///   - home: the program whose home it keeps by default (`concord`).
  ///   - apps: the apps it can host, the first by default.
  ///   - version: what `--version` prints.
  public init(name: String, home: String, apps: [ProgramApp], version: String = "0.1.0") {
    self.init(invocation: name, home: home, apps: apps, version: version, isRoot: true)
  }

  package init(invocation: String, home: String, apps: [ProgramApp], version: String, isRoot: Bool) {
    precondition(!apps.isEmpty, "a program hosts at least one app")
    self.invocation = invocation
    self.home = home
    self.apps = apps
    self.version = version
    self.isRoot = isRoot
  }

  /// The daemon program of this process: set before any command is parsed.
  nonisolated(unsafe) package static var running = DaemonProgram(invocation: "", home: "concord", apps: [], unchecked: ())

  private init(invocation: String, home: String, apps: [ProgramApp], unchecked: Void) {
    (self.invocation, self.home, self.apps, self.version, self.isRoot) = (invocation, home, apps, "0.1.0", false)
  }

  /// The app `name` names (in any case), else the first.
  package func app(named name: String?) -> ProgramApp {
    apps.first { $0.name == name?.lowercased() } ?? apps[0]
  }

  /// Runs the daemon in the foreground, with the options on the command line, and exits with
  /// the README's exit codes.
  public func run() -> Never {
    Self.running = self
    DaemonRunCommand.runAndExit(as: invocation)
  }
}
