import ArgumentParser
import ConcordLog
import ConcordServer
import Foundation
import Logging
import ServiceLifecycle

/// `NAME daemon run` (and `concordd`, whose root command it is): the daemon in the foreground.
package struct DaemonRunCommand: ParsableCommand {
  package static var configuration: CommandConfiguration {
    let program = DaemonProgram.running
    return CommandConfiguration(
      commandName: program.isRoot ? program.invocation : "run",
      abstract: "Run the daemon in the foreground.",
      discussion: """
        The daemon holds the application state, writes every action to the encrypted log in \
        CONCORD_HOME, and serves windows over CONCORD_HOME/\(ConcordServer.socketName). \
        SIGTERM or SIGINT stop it cleanly: it commits what is pending, writes a signed \
        checkpoint and removes its socket.

        Files in CONCORD_HOME (default $XDG_STATE_HOME/\(program.home), else ~/.local/state/\(program.home); \
        mode 0700): concordd.sock (0600), log.sqlite, key (0600, made on first start), \
        concordd.pid; every file the daemon makes is 0600.

        With --allow-group GROUP, CONCORD_HOME becomes 0710 and GROUP's, so that the group's \
        members can pass through it (not list it) to the socket, which is made 0660 and GROUP's; \
        the daemon's account must be a member of GROUP. Without it, the home is made 0700 again.

        Talk to it by hand: socat - UNIX-CONNECT:$CONCORD_HOME/concordd.sock, then \
        {"type":"hello","protocol":1}

        Example:
          \(program.invocation) --home /srv/\(program.home)
        """,
      version: program.version
    )
  }

  @Option(name: .long, help: ArgumentHelp("The home directory.", valueName: "DIR"))
  var home: String?

  @Option(name: .long, help: ArgumentHelp("The socket path (default: HOME/concordd.sock).", valueName: "PATH"))
  var socket: String?

  @Option(name: .long, help: ArgumentHelp("The key file (default: HOME/key).", valueName: "PATH"))
  var keyFile: String?

  @Flag(name: .long, help: "Unlock the log with a passphrase read from CONCORD_PASSPHRASE instead of a key file.")
  var passphrase = false

  @Option(name: .long, help: "Take a snapshot of the state every N actions.")
  var snapshotInterval: Int64 = 1000

  @Option(name: .long, help: ArgumentHelp("Also let members of this group connect (the home 0710 and the socket 0660, both the group's).", valueName: "GROUP"))
  var allowGroup: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Ping a window that has been quiet this many seconds; drop it if it does not answer within as long again, or if it reads nothing for as long while messages wait.",
      valueName: "SECONDS"))
  var pingInterval: Int = 30

  @Option(name: .long, help: ArgumentHelp(appHelp, valueName: "NAME"))
  var app: String = ProcessInfo.processInfo.environment["CONCORD_APP"] ?? DaemonProgram.running.apps[0].name

  @Option(name: .long, help: "trace, debug, info, notice, warning, error or critical.")
  var logLevel: Logger.Level = .info

  /// `--app`'s help: the apps this program hosts.
  private static var appHelp: String {
    let names = DaemonProgram.running.apps.map(\.name)
    return "The app to host: \(names.joined(separator: " or ")). Default: CONCORD_APP, else \(names[0])."
  }

  package init() {}

  package func validate() throws {
    guard snapshotInterval > 0 else { throw ValidationError("--snapshot-interval must be at least 1") }
    guard pingInterval > 0 else { throw ValidationError("--ping-interval must be at least 1 second") }
    let names = DaemonProgram.running.apps.map(\.name)
    guard names.contains(app.lowercased()) else {
      throw ValidationError("--app is \(names.joined(separator: " or ")), not \(app)")
    }
  }

  package func run() throws {
    // Nothing the daemon creates (the log, its -wal and -shm, the checkpoint) may be readable by
    // anyone else, whatever umask it was started with: with --allow-group the group can pass
    // through the home, so a file's own mode is all that keeps it out.
    umask(0o077)
    let level = logLevel
    LoggingSystem.bootstrap { label in
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = level
      return handler
    }
    let program = DaemonProgram.running
    let logger = Logger(label: program.isRoot ? program.invocation : program.home)
    var configuration = DaemonConfiguration(
      home: home.map { URL(filePath: $0) } ?? DaemonConfiguration.defaultHome(program: program.home))
    if let socket { configuration.socketPath = socket }
    if let keyFile { configuration.key = .file(URL(filePath: keyFile)) }
    if passphrase {
      guard var secret = ProcessInfo.processInfo.environment["CONCORD_PASSPHRASE"].map({ Array($0.utf8) }) else {
        throw CommandFailure(message: "--passphrase needs CONCORD_PASSPHRASE in the environment")
      }
      configuration.key = .passphrase(secret)
      zeroize(&secret)
    }
    configuration.snapshotInterval = snapshotInterval
    configuration.allowGroup = allowGroup
    configuration.pingInterval = .seconds(pingInterval)

    let daemon = program.app(named: app).daemon(configuration, logger)
    let group = ServiceGroup(
      configuration: .init(services: [.init(service: daemon)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
    try Blocking.run {
      do {
        try await group.run()
      } catch let error as DaemonError {
        throw CommandFailure(message: error.description)
      } catch let failure as CommandFailure {
        throw failure
      } catch {
        throw CommandFailure(message: "\(error)")
      }
    }
  }
}

/// Lets `--log-level` take a level by its name (`trace` to `critical`) on the command line.
extension Logger.Level: @retroactive ExpressibleByArgument {}
