import ArgumentParser
import ConcordClient
import ConcordDaemonCommand
import ConcordLog
import ConcordPlatform
import ConcordWire
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `NAME daemon run|start|stop|status`.
struct DaemonCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    let name = ConcordProgram.running.name
    return CommandConfiguration(
      commandName: "daemon",
      abstract: "Run the daemon, or start, stop and inspect it in the background.",
      discussion: "Examples:\n  \(name) daemon start\n  \(name) daemon status\n  \(name) daemon stop",
      subcommands: [Start.self, Stop.self, Status.self, DaemonRunCommand.self])
  }

  struct Start: ParsableCommand {
    static var configuration: CommandConfiguration {
      let program = ConcordProgram.running
      let daemon = program.daemonCommand ?? "the daemon"
      return CommandConfiguration(
        abstract: "Start \(daemon) in the background and wait until it answers.",
        discussion: """
          Its output goes to concordd.log in the home. Flags after `--` are passed to \(daemon) \
          (see `\(program.daemonCommand ?? "\(program.name) daemon run") --help`).

          Examples:
            \(program.name) daemon start
            \(program.name) daemon start -- --snapshot-interval 500
          """)
    }

    @OptionGroup var options: HomeOptions

    @Option(help: ArgumentHelp("Seconds to wait for the daemon to answer.", valueName: "SECONDS"))
    var timeout: Double = 30

    @Argument(parsing: .postTerminator, help: "Options for the daemon (those of `daemon run`).")
    var daemonArguments: [String] = []

    func run() throws {
      let layout = try options.localLayout(doing: "starts the daemon")
      if let connection = try? ClientConnection(socket: layout.socket, presence: false) {
        print("already running (pid \(DaemonProcessInfo.pid(in: layout).map(String.init) ?? "?"), seq \(connection.welcome.seq))")
        return
      }
      try FileManager.default.createDirectory(
        at: layout.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      let (binary, launchArguments) = try DaemonProcessInfo.daemonLaunch()
      // Appended to, run after run: the last run's lines (why it stopped, say) stay readable.
      if !FileManager.default.fileExists(atPath: layout.daemonLog.path) {
        _ = FileManager.default.createFile(atPath: layout.daemonLog.path, contents: nil, attributes: [.posixPermissions: 0o600])
      }
      guard let logHandle = FileHandle(forWritingAtPath: layout.daemonLog.path) else {
        throw CommandFailure(message: "cannot write \(layout.daemonLog.path)")
      }
      let runStart = logHandle.seekToEndOfFile()
      let process = Process()
      // In a session of its own (setsid), so closing this terminal does not stop it.
      let setsid = URL(filePath: "/usr/bin/setsid")
      let detached = FileManager.default.isExecutableFile(atPath: setsid.path)
      process.executableURL = detached ? setsid : binary
      process.arguments = (detached ? [binary.path] : []) + launchArguments + ["--home", layout.directory.path] + daemonArguments
      process.standardOutput = logHandle
      process.standardError = logHandle
      process.standardInput = FileHandle.nullDevice
      do {
        try process.run()
      } catch {
        throw CommandFailure(message: "cannot run \(binary.path): \(error.localizedDescription)")
      }
      let answered = try Waiting.until(timeout, every: 0.05) { () throws(CommandFailure) -> ClientConnection? in
        if let connection = try? ClientConnection(socket: layout.socket, presence: false) { return connection }
        guard process.isRunning else {
          // This run's lines only: the log keeps earlier runs' too.
          let tail = DaemonProcessInfo.lastLines(of: layout.daemonLog, count: 1, after: runStart)
          throw CommandFailure(message: "\(DaemonProcessInfo.daemonName) exited (\(process.terminationStatus)): \(tail)")
        }
        return nil
      }
      guard let connection = answered else {
        throw CommandFailure(message: "\(DaemonProcessInfo.daemonName) did not answer within \(Int(timeout)) s; see \(layout.daemonLog.path)")
      }
      let pid = DaemonProcessInfo.pid(in: layout) ?? process.processIdentifier
      print("started (pid \(pid), seq \(connection.welcome.seq)); log: \(layout.daemonLog.path)")
    }
  }

  struct Stop: ParsableCommand {
    static var configuration: CommandConfiguration {
      CommandConfiguration(
        abstract: "Stop the daemon cleanly (SIGTERM) and wait until it has exited.",
        discussion: "Example:\n  \(ConcordProgram.running.name) daemon stop")
    }

    @OptionGroup var options: HomeOptions

    @Option(help: ArgumentHelp("Seconds to wait for the daemon to exit.", valueName: "SECONDS"))
    var timeout: Double = 30

    func run() throws {
      let layout = try options.localLayout(doing: "stops the daemon")
      // The pid file outlives the daemon; only its lock says a daemon holds it. Without that
      // check a pid reused by some other process could be signalled.
      guard DaemonProcessInfo.isLocked(layout), let pid = DaemonProcessInfo.pid(in: layout), kill(pid, 0) == 0 else {
        print("the daemon is not running")
        return
      }
      guard kill(pid, SIGTERM) == 0 else {
        throw CommandFailure(message: "cannot signal pid \(pid): \(String(cString: strerror(errno)))")
      }
      let exited = Waiting.until(timeout, every: 0.02) {
        kill(pid, 0) == 0 || DaemonProcessInfo.isLocked(layout) ? nil : true
      }
      guard exited != nil else { throw CommandFailure(message: "pid \(pid) did not exit within \(Int(timeout)) s") }
      print("stopped (pid \(pid))")
    }
  }

  struct Status: ParsableCommand {
    static var configuration: CommandConfiguration {
      CommandConfiguration(
        abstract: "Show the daemon's pid, uptime, log size, seq and the windows attached to each scope.",
        discussion: "Exits 3 when the daemon is not running.\n\nExample:\n  \(ConcordProgram.running.name) daemon status")
    }

    @OptionGroup var options: HomeOptions

    func run() throws {
      let layout = options.layout
      let connection = try ClientConnection(address: options.address, presence: false)
      try connection.send(.status)
      var answer: ServerMessage.DaemonStatus?
      while answer == nil, let message = try connection.receive(timeout: 5) {
        if case let .status(status) = message { answer = status }
      }
      guard let status = answer else { throw ClientError.closed }
      let size = (try? FileManager.default.attributesOfItem(atPath: layout.log.path)[.size] as? Int64) ?? 0
      let uptime = Int(Date().timeIntervalSince1970 - status.startedAt)
      print("running: pid \(status.pid), up \(uptime / 3600)h \(uptime / 60 % 60)m \(uptime % 60)s")
      if let remote = options.remote {
        print("log: on \(remote), seq \(status.seq), id \(connection.welcome.logID)")
      } else {
        print("log: \(layout.log.path), \(ByteCountFormatter.string(fromByteCount: size, countStyle: .file)), seq \(status.seq), id \(connection.welcome.logID)")
      }
      print("app: \(connection.welcome.app); connections: \(status.windows), this one included")
      for (scope, count) in status.scopes.sorted(by: { $0.key < $1.key }) {
        print("  \(scope)\t\(count) window\(count == 1 ? "" : "s")")
      }
    }
  }
}

/// Finding and watching the daemon's process.
enum DaemonProcessInfo {
  /// The pid written in the pid file, if any.
  static func pid(in layout: ConcordHome) -> Int32? {
    guard let text = try? String(contentsOf: layout.pidFile, encoding: .utf8) else { return nil }
    return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// Whether a daemon holds the pid file's lock.
  static func isLocked(_ layout: ConcordHome) -> Bool {
    let fd = open(layout.pidFile.path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    if flock(fd, LOCK_EX | LOCK_NB) == 0 {
      flock(fd, LOCK_UN)
      return false
    }
    return true
  }

  /// How the daemon is named in messages: its own executable's name, else "the daemon".
  static var daemonName: String { ConcordProgram.running.daemonCommand ?? "the daemon" }

  /// The executable that runs the daemon and the arguments before its options: this program
  /// with `daemon run`; or the program's daemon executable (`concordd`) beside this one, else on
  /// the PATH.
  static func daemonLaunch() throws -> (executable: URL, arguments: [String]) {
    let this = URL(filePath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
    guard let name = ConcordProgram.running.daemonCommand else { return (this, ["daemon", "run"]) }
    let beside = this.deletingLastPathComponent().appending(path: name)
    if FileManager.default.isExecutableFile(atPath: beside.path) { return (beside, []) }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = URL(filePath: String(directory)).appending(path: name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return (candidate, []) }
    }
    throw CommandFailure(message: "\(name) not found beside \(ConcordProgram.running.name) or on the PATH")
  }

  /// The last `count` lines written to `url` past byte `offset`, or a note when there are none.
  static func lastLines(of url: URL, count: Int, after offset: UInt64) -> String {
    guard let handle = try? FileHandle(forReadingFrom: url) else { return "(no log)" }
    defer { try? handle.close() }
    try? handle.seek(toOffset: offset)
    let text = String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
    let lines = text.split(separator: "\n").suffix(count)
    return lines.isEmpty ? "(it wrote nothing)" : lines.joined(separator: " / ")
  }
}
