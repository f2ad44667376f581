import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real OpenSSH server of a driver's own: `sshd` listening on one address (loopback, or a
/// network namespace's), with a host key, an authorized key and a client configuration
/// (`ssh -F`) that names it `testbox`, all in a temporary directory. Nothing of the machine's
/// own SSH set-up is read or changed; ``stop()`` ends it and removes the directory.
///
/// ```swift
/// let server = try LoopbackSSHServer(users: ["root"])
/// // ssh -F \(server.clientConfig) testbox true
/// server.stop()
/// ```
public final class LoopbackSSHServer {
  public let directory: URL
  public let address: String
  public let port: Int
  private var pid: pid_t = 0

  /// Starts sshd for `users` (who log in with the key ``identity``) on `address`.
  ///
  /// - Parameters:
  ///   - users: the accounts that may log in; sshd run by root logs in any of them, run by
  ///     another account only that account.
  ///   - address: where sshd listens.
  ///   - launcher: words put before sshd's command, such as `ip netns exec NAME`.
  public init(users: [String], address: String = "127.0.0.1", launcher: [String] = []) throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd") else {
      throw DriveError("no /usr/sbin/sshd: install openssh-server (scripts/test.sh and scripts/bench.sh do)")
    }
    directory = URL(filePath: "/tmp").appending(path: "cdssh-\(UUID().uuidString.prefix(8))")
    self.address = address
    port = Int.random(in: 20_000...60_000)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    for key in ["host", "id", "other"] {
      _ = try runToEnd("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", path(key)])
    }
    try FileManager.default.copyItem(atPath: path("id.pub"), toPath: path("authorized_keys"))
    try write(
      """
      Port \(port)
      ListenAddress \(address)
      HostKey \(path("host"))
      PidFile \(path("sshd.pid"))
      UsePAM no
      PasswordAuthentication no
      KbdInteractiveAuthentication no
      PermitRootLogin prohibit-password
      StrictModes no
      AuthorizedKeysFile \(path("authorized_keys"))
      AllowUsers \(users.joined(separator: " "))
      """, to: "sshd_config")
    let hostKey = try String(contentsOfFile: path("host.pub"), encoding: .utf8)
    try write("[\(address)]:\(port) \(hostKey)", to: "known_hosts")
    // The same name with another key: what a client sees when the server's key changed.
    let otherKey = try String(contentsOfFile: path("other.pub"), encoding: .utf8)
    try write("[\(address)]:\(port) \(otherKey)", to: "known_hosts.changed")
    for (name, knownHosts) in [("ssh_config", "known_hosts"), ("ssh_config.changed", "known_hosts.changed")] {
      try write(
        """
        Host testbox
          HostName \(address)
          Port \(port)
          IdentityFile \(path("id"))
          IdentitiesOnly yes
          UserKnownHostsFile \(path(knownHosts))
          StrictHostKeyChecking yes
        """, to: name)
    }
    // Privilege separation needs it.
    if getuid() == 0 { try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true) }
    let command = launcher + ["/usr/sbin/sshd", "-D", "-e", "-f", path("sshd_config")]
    pid = try spawn(command, log: path("sshd.log"))
    let deadline = Date().addingTimeInterval(10)
    while !log.contains("Server listening") {
      guard Date() < deadline else {
        stop()
        throw DriveError("sshd did not start: \(log)")
      }
      usleep(50_000)
    }
  }

  /// A file of the server's directory, by name.
  public func path(_ name: String) -> String { directory.appending(path: name).path }

  /// The client configuration (`ssh -F`) that reaches this server as `testbox`.
  public var clientConfig: String { path("ssh_config") }

  /// A client configuration that expects another host key for `testbox`: a changed server.
  public var changedHostKeyConfig: String { path("ssh_config.changed") }

  /// The process id of sshd: its sessions are its children.
  public var processID: pid_t { pid }

  /// What sshd wrote.
  public var log: String { (try? String(contentsOfFile: path("sshd.log"), encoding: .utf8)) ?? "" }

  /// Ends sshd (its sessions live on until their clients go) and removes the directory.
  public func stop() {
    if pid > 0 {
      kill(pid, SIGTERM)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
      pid = 0
    }
    try? FileManager.default.removeItem(at: directory)
  }

  private func write(_ text: String, to name: String) throws {
    try Data((text.hasSuffix("\n") ? text : text + "\n").utf8).write(to: directory.appending(path: name))
  }

  private func spawn(_ command: [String], log: String) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    var pid: pid_t = 0
    let argv = command.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let result = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
    guard result == 0 else { throw DriveError("\(command[0]) could not start: \(String(cString: strerror(result)))") }
    return pid
  }
}
