import ConcordPlatform
import ConcordWire
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A window's way to a daemon on another machine: a connection to this laptop's relay for that
/// server (`Relay`, the `relay` command), started here when none runs. Every window, command
/// and outbox sync to one server shares the relay's one ssh channel.
///
/// ```swift
/// let fd = try RelayLink.open(to: target, greeting: Array(hello.utf8), timeout: 15)
/// // the daemon's welcome comes next on fd
/// ```
public enum RelayLink {
  /// A channel to the daemon on `target`'s machine, opened, with `greeting` (the hello) sent on
  /// it; throws why not, in words. A relay that was ending as the window came (its last window
  /// gone a minute ago, or its ssh just ended) answers nothing: the next relay is started, once.
  ///
  /// - Parameters:
  ///   - target: the server whose daemon to reach.
  ///   - greeting: the bytes to send first: the `hello` line.
  ///   - timeout: how many seconds to wait for the relay's answer (``RelayAnswer``).
  ///   - environment: where `CONCORD_SSH_COMMAND`, `CONCORD_REMOTE_COMMAND` and
  ///     `XDG_RUNTIME_DIR` are read.
  /// - Returns: the connected socket's descriptor; the daemon's welcome is the next line on it.
  public static func open(
    to target: SSHTarget, greeting: [UInt8], timeout: Double,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(ClientError) -> Int32 {
    for _ in 1...2 {
      let fd = try connect(to: target, environment: environment)
      // The hello goes at once: it waits in the relay while ssh logs in.
      var offset = 0
      while offset < greeting.count {
        let written = greeting[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard written > 0 else { break }
        offset += written
      }
      do {
        if try awaitOpened(fd, target: target, timeout: timeout) { return fd }
      } catch {
        close(fd)
        throw error
      }
      close(fd)
    }
    throw .remoteUnreachable("\(target): the relay to it ended before the daemon answered")
  }

  /// Where this account's relay to `target` listens: one per server, ssh command and program run
  /// there (two programs' windows to one server go to two daemons), named by a hash of them, in the directory of the shared SSH connections.
  ///
  /// - Parameters:
  ///   - target: the server the relay reaches.
  ///   - environment: where `CONCORD_SSH_COMMAND`, `CONCORD_REMOTE_COMMAND` and
  ///     `XDG_RUNTIME_DIR` are read.
  public static func socketPath(for target: SSHTarget, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
    let key = [target.description, environment["CONCORD_SSH_COMMAND"] ?? "", ProgramName.remoteCommand(environment)]
      .joined(separator: "\u{0}")
    // FNV-1a: a name, not a secret (the directory is this account's alone).
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return SSHTransport.runtimeDirectory(environment).appending(path: "relay-" + String(hash, radix: 16)).path + ".sock"
  }

  /// A connection to the relay for `target`, started first when none answers.
  static func connect(
    to target: SSHTarget, environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(ClientError) -> Int32 {
    _ = try SSHTransport.privateRuntimeDirectory(environment)
    let path = socketPath(for: target, environment: environment)
    if let fd = try? UnixSocket.connect(to: path) { return try ownRelay(fd) }
    try start(target: target, socketPath: path, environment: environment)
    // Started, or another window's relay won the race to the socket: either answers now.
    var refusal: UnixSocketError?
    let connected = Waiting.until(5, every: 0.01) { () -> Int32? in
      do throws(UnixSocketError) {
        return try UnixSocket.connect(to: path)
      } catch {
        refusal = error
        return nil
      }
    }
    guard let fd = connected else {
      throw .remoteUnreachable("\(target): the relay to it did not start (\(refusal?.description ?? "no answer"))")
    }
    return try ownRelay(fd)
  }

  /// `fd`, when the relay at its other end is this account's: no other account's process may
  /// hear a window's actions, whatever was left in the socket's directory.
  private static func ownRelay(_ fd: Int32) throws(ClientError) -> Int32 {
    let uid = UnixSocket.peerCredentials(of: fd)?.uid
    guard uid == getuid() else {
      close(fd)
      throw .local("the relay's socket is held by another account (uid \(uid.map(String.init) ?? "unknown")); not connecting")
    }
    return fd
  }

  /// Waits for the relay's first line on `fd`: true when the channel opened, false when the
  /// relay ended without a word; throws why the channel did not open, in words. Reads nothing
  /// past that line: the daemon's answers follow it.
  static func awaitOpened(_ fd: Int32, target: SSHTarget, timeout: Double) throws(ClientError) -> Bool {
    var line: [UInt8] = []
    let deadline = Date().addingTimeInterval(timeout)
    while line.last != UInt8(ascii: "\n") {
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { throw .remoteUnreachable("\(target) did not answer within \(Int(timeout)) s") }
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, Int32(remaining * 1000) + 1)
      if ready < 0, errno == EINTR { continue }
      guard ready > 0 else { continue }
      var byte: UInt8 = 0
      let count = recv(fd, &byte, 1, 0)
      if count < 0, errno == EINTR || errno == EAGAIN { continue }
      guard count == 1 else { return false }
      line.append(byte)
      guard line.count <= RelayAnswer.maximumBytes else { throw .protocolError("the relay's answer is too long") }
    }
    switch RelayAnswer(line: line.dropLast()) {
    case .opened?: return true
    case let .failed(status, said)?: throw SSHTransport.failure(status: status, said: said, target: target)
    case nil: throw .protocolError("the relay answered something else: \(String(decoding: line.prefix(200), as: UTF8.self))")
    }
  }

  /// Starts `concord relay` for `target` in a session of its own (a window's terminal closing
  /// must not end it), through a shell that exits at once so it is not this process's child,
  /// and waits until it listens or has found another relay listening.
  private static func start(target: SSHTarget, socketPath: String, environment: [String: String]) throws(ClientError) {
    var pipe: [Int32] = [-1, -1]
    guard Glibc.pipe(&pipe) == 0 else { throw .local("a pipe could not be made: \(String(cString: strerror(errno)))") }
    for end in pipe { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let arguments = ["/bin/sh", "-c", #""$0" relay --host "$1" --socket "$2" &"#, executable(), target.url, socketPath]
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { envp.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, envp)
    Glibc.close(pipe[1])
    defer { Glibc.close(pipe[0]) }
    guard spawned == 0 else { throw .local("the relay could not be started: \(String(cString: strerror(spawned)))") }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    // "ready" once it listens; the end of the pipe when it exits (another relay listens).
    var poller = pollfd(fd: pipe[0], events: Int16(POLLIN), revents: 0)
    var byte: UInt8 = 0
    if poll(&poller, 1, 5000) > 0 { _ = read(pipe[0], &byte, 1) }
  }

  /// The program that starts the relay (``ProgramName``): this one when it is, else the one
  /// beside it (a benchmark or test built with it), else the one on the PATH.
  static func executable() -> String {
    let name = ProgramName.current
    let this = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
    if URL(filePath: this).lastPathComponent == name { return this }
    let beside = URL(filePath: this).deletingLastPathComponent().appending(path: name).path
    return FileManager.default.isExecutableFile(atPath: beside) ? beside : name
  }
}
