import ConcordPlatform
import ConcordWire
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The system's `ssh`, running `concord dial-stdio` (or the program of ``ProgramName``) on the server, as a connection to the daemon
/// there: the client talks to one end of a socket pair whose other end is ssh's standard input
/// and output. OpenSSH authenticates the person (keys, agent, `~/.ssh/config`, `ProxyJump`,
/// known hosts); several windows share one SSH connection (ControlMaster).
///
/// Environment: `CONCORD_SSH_COMMAND` replaces `ssh` (words split at spaces, such as
/// `ssh -F ~/.ssh/team_config`); `CONCORD_REMOTE_COMMAND` replaces `concord` (``ProgramName``) on the server (the
/// PATH of a non-interactive ssh session is short: `/usr/local/bin:/usr/bin:/bin`).
///
/// ```swift
/// let target = try SSHTarget("ssh://alice@server")
/// let link = try SSHTransport.open(target)
/// // link.fileDescriptor speaks the protocol; link.failure(for: target) says why it ended early
/// link.close()
/// ```
public final class SSHTransport {
  /// This end of the socket pair: what is written here reaches the remote command's standard
  /// input, and its standard output is read here.
  public let fileDescriptor: Int32
  private let process: pid_t
  /// What ssh writes on standard error: a file with no name (unlinked once open), so nothing is
  /// left behind however this process ends.
  private let errors: Int32
  private var status: Int32?

  private init(fileDescriptor: Int32, process: pid_t, errors: Int32) {
    self.fileDescriptor = fileDescriptor
    self.process = process
    self.errors = errors
  }

  /// Starts ssh towards `target`, running `concord ARGUMENTS` there (`dial-stdio`, a
  /// connection of its own; `dial-stdio --mux`, the trunk of a relay, `Relay`); throws only when
  /// ssh cannot be started at all.
  ///
  /// - Parameters:
  ///   - target: the server, and the daemon's home there.
  ///   - remoteArguments: what the program on the server is asked to do.
  ///   - environment: where `CONCORD_SSH_COMMAND`, `CONCORD_REMOTE_COMMAND` and
  ///     `XDG_RUNTIME_DIR` are read.
  public static func open(
    _ target: SSHTarget, running remoteArguments: [String] = ["dial-stdio"],
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(ClientError) -> SSHTransport {
    _ = try privateRuntimeDirectory(environment)
    let arguments = command(for: target, running: remoteArguments, environment: environment)
    var pair: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
      throw .local("a socket pair for ssh could not be made: \(String(cString: strerror(errno)))")
    }
    let errorsPath = runtimeDirectory(environment).appending(path: "ssh-\(getpid())-\(UUID().uuidString.prefix(8)).err").path
    let errors = Glibc.open(errorsPath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard errors >= 0 else {
      let reason = String(cString: strerror(errno))
      Glibc.close(pair[0])
      Glibc.close(pair[1])
      throw .local("a file for ssh's errors could not be made in \(runtimeDirectory(environment).path): \(reason)")
    }
    unlink(errorsPath)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pair[1], 0)
    posix_spawn_file_actions_adddup2(&actions, pair[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errors, 2)
    var pid: pid_t = 0
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
    Glibc.close(pair[1])
    guard spawned == 0 else {
      Glibc.close(pair[0])
      Glibc.close(errors)
      throw .local("`\(arguments[0])` could not be started: \(String(cString: strerror(spawned))); install OpenSSH's client")
    }
    return SSHTransport(fileDescriptor: pair[0], process: pid, errors: errors)
  }

  /// The ssh command line that runs `concord ARGUMENTS` on `target`'s machine (each argument
  /// quoted for the server's shell), in the home the URL names.
  ///
  /// - Parameters:
  ///   - target: the server, and the daemon's home there.
  ///   - arguments: what the program on the server is asked to do.
  ///   - environment: where `CONCORD_SSH_COMMAND` and `CONCORD_REMOTE_COMMAND` are read.
  ///   - terminal: true gives the command on the server a terminal of its own, joined to this
  ///     one (`ssh -t`): for a full-screen window drawn there, such as the inspector's.
  public static func command(
    for target: SSHTarget, running arguments: [String], environment: [String: String], terminal: Bool = false
  ) -> [String] {
    let ssh = (environment["CONCORD_SSH_COMMAND"] ?? "ssh").split(separator: " ").map(String.init)
    var remote = ([ProgramName.remoteCommand(environment)] + arguments.map(shellQuoted)).joined(separator: " ")
    if let home = target.home { remote += " --home " + shellQuoted(home) }
    var arguments = (ssh.isEmpty ? ["ssh"] : ssh) + [
      // A link that is down is found out in seconds: a window waits for its connection.
      terminal ? "-t" : "-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=5", "-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3",
      "-o", "ControlMaster=auto", "-o", "ControlPersist=60",
      "-o", "ControlPath=\(runtimeDirectory(environment).path)/cm-%C",
    ]
    if let port = target.port { arguments += ["-p", String(port)] }
    if let user = target.user { arguments += ["-l", user] }
    return arguments + ["--", target.host, remote]
  }

  /// `text` as one word of a POSIX shell: the server's shell reads the remote command.
  static func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

  /// Where the shared SSH connections' sockets live: short (a socket path is at most 107
  /// bytes) and this account's alone.
  static func runtimeDirectory(_ environment: [String: String]) -> URL {
    var base = environment["XDG_RUNTIME_DIR"].map { URL(filePath: $0) } ?? URL(filePath: "/tmp")
    // ssh adds `cm-` and a 40-digit hash, then a temporary 17-character suffix while it makes
    // the socket: some 62 bytes past the directory, of at most 107 (a socket path's longest).
    if base.path.utf8.count > UnixSocket.maximumPathBytes - 62 - "/concord-\(getuid())".utf8.count { base = URL(filePath: "/tmp") }
    let directory = base.appending(path: "concord-\(getuid())")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    return directory
  }

  /// ``runtimeDirectory(_:)``, refused unless it is this account's alone: under `/tmp` another
  /// account could have made it first, and would then be the one a window's relay socket or
  /// ssh's shared connection reaches.
  static func privateRuntimeDirectory(_ environment: [String: String]) throws(ClientError) -> URL {
    let directory = runtimeDirectory(environment)
    var info = stat()
    guard lstat(directory.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(), info.st_mode & 0o077 == 0
    else {
      throw .local("\(directory.path) must be a directory of this account's alone (mode 0700); remove it, or set XDG_RUNTIME_DIR")
    }
    return directory
  }

  /// Why the connection ended before the daemon greeted it, in one line that says what to do:
  /// read from ssh's exit status (255 is ssh's own failure; others are the remote command's)
  /// and what it wrote on standard error.
  public func failure(for target: SSHTarget) -> ClientError {
    let (status, said) = ending()
    return Self.failure(status: status, said: said, target: target)
  }

  /// ssh's exit status (waiting at most 5 s for it; nil if it has not exited) and what it wrote
  /// on standard error.
  public func ending() -> (status: Int32?, said: String) {
    let status = waitForExit(seconds: 5)
    return (status, String(decoding: readErrors(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// Why an ssh to `target` that exited with `status`, having said `said` on standard error,
  /// failed, in one line that says what to do.
  ///
  /// - Parameters:
  ///   - status: ssh's exit status (255 for its own failures), nil if it had not exited.
  ///   - said: what ssh wrote on standard error.
  ///   - target: the server it was to reach, named in the message.
  public static func failure(status: Int32?, said: String, target: SSHTarget) -> ClientError {
    let last = said.split(separator: "\n").last.map(String.init) ?? ""
    let remote = target.description
    switch (status, said) {
    case (255, let text) where text.contains("REMOTE HOST IDENTIFICATION HAS CHANGED") || text.contains("Host key verification failed"):
      return .remoteRefused(
        "\(remote): the server's host key is not the one known for it (ssh: host key verification failed); if it changed on purpose, update ~/.ssh/known_hosts, else do not connect")
    case (255, let text) where text.contains("Permission denied"):
      return .remoteRefused("\(remote): the server refused the login (\(last)); check the user and that your SSH key is in its authorized_keys")
    case (255, _):
      return .remoteUnreachable("\(remote) cannot be reached: \(last.isEmpty ? "ssh failed" : last)")
    case (2, let text) where text.contains("--mux"):
      return .remoteRefused("\(remote): the server's \(ProgramName.current) is older than this one (it has no `dial-stdio --mux`); install the same version there")
    case (127, _), (126, _):
      return .remoteRefused(
        "\(remote): `\(ProgramName.current)` was not found on the server (\(last)); install it there, or name it with CONCORD_REMOTE_COMMAND")
    case (3, _):
      return .remoteUnreachable("\(remote): \(last.replacingOccurrences(of: "\(ProgramName.current): ", with: ""))")
    default:
      return .remoteUnreachable("\(remote): the connection ended (\(last.isEmpty ? "ssh exited \(status.map(String.init) ?? "?")" : last))")
    }
  }

  /// ssh's exit status, once it has exited (waiting at most `seconds`); nil if it has not.
  private func waitForExit(seconds: Double) -> Int32? {
    if let status { return status }
    /// waitpid found no such child: there is nothing to wait for.
    struct NoChild: Error {}
    status = try? Waiting.until(seconds, every: 0.01) { () throws(NoChild) -> Int32? in
      var raw: Int32 = 0
      let reaped = waitpid(process, &raw, WNOHANG)
      if reaped < 0 { throw NoChild() }
      guard reaped == process else { return nil }
      return (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
    }
    return status
  }

  /// What ssh wrote on standard error so far (its last 64 KiB at most).
  private func readErrors() -> [UInt8] {
    let size = Int(lseek(errors, 0, SEEK_END))
    let start = max(0, size - 65_536)
    var bytes = [UInt8](repeating: 0, count: size - start)
    let count = bytes.withUnsafeMutableBytes { pread(errors, $0.baseAddress, $0.count, off_t(start)) }
    return Array(bytes.prefix(max(0, count)))
  }

  /// Ends the connection: ssh sees its input end and exits; it is reaped.
  public func close() {
    Glibc.close(fileDescriptor)
    if waitForExit(seconds: 2) == nil {
      kill(process, SIGTERM)
      _ = waitForExit(seconds: 2)
    }
    Glibc.close(errors)
  }
}
