import DaemonDriving
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A second "machine" on loopback: a test account with a daemon of its own, and a real OpenSSH
/// server on 127.0.0.1 that logs in only that account, with its own host key; and a client
/// configuration (`ssh -F`) that knows that host key and uses a test key. Everything lives in a
/// temporary directory and the account, which ``remove()`` takes away.
final class SSHLoopback {
  /// The first person's account, which runs the daemon.
  let account: String
  /// Another person's account, in the same group (`team`): for a team daemon.
  let colleague: String
  /// The group both accounts are in.
  let team: String
  let accountHome: URL
  /// The server's address: 127.0.0.1, or its end of the veth pair when the two "machines" are
  /// network namespaces.
  let address: String
  /// The namespaces of the server and the laptop, when the test asked for them.
  let namespaces: (server: String, laptop: String)?
  /// The OpenSSH server that logs the two accounts in.
  private(set) var server: LoopbackSSHServer!
  private(set) var daemon: Process?

  /// Needs root (to add an account and run sshd as it does) and OpenSSH's server, which
  /// `scripts/test.sh` installs.
  ///
  /// - Parameter namespaces: two "machines" as network namespaces joined by a veth pair (the
  ///   server's sshd in one, the laptop's commands in the other), so that the link can be cut
  ///   (``setLink(up:)``) as a network fails: no reset, only silence.
  init(namespaces: Bool = false) throws {
    guard getuid() == 0 else { throw DriveError("the SSH tests run as root: they add a test account and start sshd") }
    guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd") else {
      throw DriveError("no /usr/sbin/sshd: scripts/test.sh installs openssh-server")
    }
    let suffix = UInt32.random(in: 10_000...99_999)
    account = "cdssh\(suffix)"
    colleague = "cdsshb\(suffix)"
    team = "cdteam\(suffix)"
    accountHome = URL(filePath: "/home/\(account)")
    if namespaces {
      let net = Int.random(in: 1...250)
      let names = (server: "cds\(suffix)", laptop: "cdl\(suffix)")
      self.namespaces = names
      address = "10.77.\(net).1"
      for name in [names.server, names.laptop] { try Self.run("/usr/sbin/ip", ["netns", "add", name]) }
      try Self.run("/usr/sbin/ip", ["link", "add", "vs\(suffix)", "type", "veth", "peer", "name", "vl\(suffix)"])
      for (end, name, host) in [("vs\(suffix)", names.server, 1), ("vl\(suffix)", names.laptop, 2)] {
        try Self.run("/usr/sbin/ip", ["link", "set", end, "netns", name])
        try Self.run("/usr/sbin/ip", ["-n", name, "addr", "add", "10.77.\(net).\(host)/24", "dev", end])
        try Self.run("/usr/sbin/ip", ["-n", name, "link", "set", end, "up"])
        try Self.run("/usr/sbin/ip", ["-n", name, "link", "set", "lo", "up"])
      }
    } else {
      self.namespaces = nil
      address = "127.0.0.1"
    }
    try Self.run("/usr/sbin/groupadd", [team])
    for name in [account, colleague] {
      try Self.run("/usr/sbin/useradd", ["-m", "-s", "/bin/sh", "-G", team, name])
      // A new account is locked; sshd without PAM refuses locked accounts even for keys.
      try Self.run("/usr/sbin/usermod", ["-p", "*", name])
    }
    do {
      server = try LoopbackSSHServer(
        users: [account, colleague], address: address,
        launcher: self.namespaces.map { ["/usr/sbin/ip", "netns", "exec", $0.server] } ?? [])
    } catch {
      remove()
      throw error
    }
  }

  /// The temporary directory of the test: the server's files, and room for the laptops' homes.
  var directory: URL { server.directory }

  /// A file of the server's directory, by name (`ssh_config`, `ssh_config.changed`, …).
  func path(_ name: String) -> String { server.path(name) }

  /// Where the laptops' shared SSH connections live: a short path of the test's own, since a
  /// control socket's path is at most 107 bytes (a longer one would fall back to /tmp, shared).
  var runtimeRoot: String { "/tmp/cdr" + account.dropFirst("cdssh".count) }

  /// A runtime directory of the laptops (`XDG_RUNTIME_DIR`), by name.
  func runtimePath(_ name: String) -> String { runtimeRoot + "/" + name }

  /// Whether this process may make network namespaces (root, and a kernel that lets it).
  static let canMakeNamespaces: Bool = {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") else { return false }
    let name = "cdprobe\(getpid())"
    guard (try? run("/usr/sbin/ip", ["netns", "add", name])) != nil else { return false }
    _ = try? run("/usr/sbin/ip", ["netns", "del", name], allowFailure: true)
    return true
  }()

  /// Brings the veth link between the two namespaces down (a cable pulled) or up again.
  func setLink(up: Bool) throws {
    guard let namespaces else { return }
    let end = "vl" + account.dropFirst("cdssh".count)
    try Self.run("/usr/sbin/ip", ["-n", namespaces.laptop, "link", "set", end, up ? "up" : "down"])
  }

  /// `concord ARGUMENTS` on the laptop: in its namespace when there is one.
  func laptopConcord(_ arguments: [String], _ environment: [String: String]) throws -> ConcordCLI.Result {
    guard let namespaces else { return try ConcordCLI.runProgram(ConcordCLI.binary, arguments, environment: environment) }
    return try ConcordCLI.runProgram(
      URL(filePath: "/usr/sbin/ip"), ["netns", "exec", namespaces.laptop, ConcordCLI.binary.path] + arguments, environment: environment)
  }

  /// A team daemon's home on the server, which the first account runs for the group.
  var teamHome: String { path("team") }

  /// The daemon of the test account, in its default home as it would run on a server; or, for
  /// a team, in ``teamHome`` letting the group in.
  func startDaemon(team: Bool = false) throws {
    let process = Process()
    process.executableURL = URL(filePath: "/usr/sbin/runuser")
    var command = ["env", "HOME=\(accountHome.path)", "CONCORD_APP=workspace"]
    if team {
      try? FileManager.default.createDirectory(atPath: teamHome, withIntermediateDirectories: true)
      try Self.run("/bin/chown", [account, teamHome])
      command += ["CONCORD_HOME=\(teamHome)", DaemonUnderTest.binary.path, "--allow-group", self.team]
    } else {
      command += [DaemonUnderTest.binary.path]
    }
    process.arguments = ["-u", account, "--"] + command
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try process.run()
    daemon = process
    let socket = team ? teamHome + "/concordd.sock" : accountHome.appending(path: ".local/state/concord/concordd.sock").path
    let deadline = Date().addingTimeInterval(20)
    while (try? LineSocket(path: socket)) == nil {
      guard Date() < deadline else { throw DriveError("the test account's daemon did not start") }
      usleep(50_000)
    }
  }

  func stopDaemon() {
    guard let daemon else { return }
    // runuser passes the signal on to the daemon.
    daemon.terminate()
    daemon.waitUntilExit()
    self.daemon = nil
  }

  /// `concord ARGUMENTS` run by the test account on the server, as an administrator would.
  func serverConcord(_ arguments: [String], team: Bool = false) throws -> ConcordCLI.Result {
    try ConcordCLI.runProgram(
      URL(filePath: "/usr/sbin/runuser"),
      ["-u", account, "--", "env", "HOME=\(accountHome.path)", "CONCORD_APP=workspace"]
        + (team ? ["CONCORD_HOME=\(teamHome)"] : []) + [ConcordCLI.binary.path] + arguments)
  }

  /// The environment of a client on the "laptop": its own home, the server reached as
  /// `ssh://testbox`, with the test's ssh configuration.
  func clientEnvironment(home: URL, config: String = "ssh_config", runtime: String = "rt") -> [String: String] {
    try? FileManager.default.createDirectory(atPath: runtimePath(runtime), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    return ProcessInfo.processInfo.environment.merging([
      "CONCORD_HOME": home.path, "CONCORD_APP": "workspace",
      "CONCORD_SSH_COMMAND": "ssh -F \(path(config))", "CONCORD_REMOTE_COMMAND": ConcordCLI.binary.path,
      "XDG_RUNTIME_DIR": runtimePath(runtime),
    ]) { $1 }
  }

  /// The home of the test's laptop, in its directory.
  var laptopHome: URL { directory.appending(path: "laptop") }

  /// A laptop with its home at `home`, whose daemon is this server's, logged in as the first
  /// account: `CONCORD_HOST=ssh://ACCOUNT@testbox`.
  func laptop(at home: URL? = nil) -> [String: String] {
    let home = home ?? laptopHome
    var environment = clientEnvironment(home: home)
    environment["CONCORD_HOST"] = "ssh://\(account)@testbox"
    return environment
  }

  /// Everything taken away: the daemon, sshd, the shared SSH connections, the account and the files.
  func remove() {
    stopDaemon()
    server?.stop()
    // The ControlMaster processes this test's clients left (they would live on for 60 s); a
    // master names itself by its socket (`ssh: PATH [mux]`).
    _ = try? Self.run("/usr/bin/pkill", ["-f", runtimeRoot + "/"], allowFailure: true)
    try? FileManager.default.removeItem(atPath: runtimeRoot)
    // The accounts' sessions (sshd's children for the shared connections) end with them.
    for name in [account, colleague] {
      for _ in 0..<20 {
        _ = try? Self.run("/usr/bin/pkill", ["-KILL", "-u", name], allowFailure: true)
        if (try? Self.run("/usr/sbin/userdel", ["-r", name], allowFailure: true))?.error.contains("currently used") != true { break }
        usleep(100_000)
      }
    }
    _ = try? Self.run("/usr/sbin/groupdel", [team], allowFailure: true)
    if let namespaces {
      // Deleting a namespace deletes the veth end in it, and so the pair.
      for name in [namespaces.server, namespaces.laptop] { _ = try? Self.run("/usr/sbin/ip", ["netns", "del", name], allowFailure: true) }
    }
  }

  @discardableResult
  static func run(_ executable: String, _ arguments: [String], allowFailure: Bool = false) throws -> ConcordCLI.Result {
    let result = try ConcordCLI.runProgram(URL(filePath: executable), arguments)
    guard result.status == 0 || allowFailure else {
      throw DriveError("\(executable) \(arguments.joined(separator: " ")) exited \(result.status): \(result.error)")
    }
    return result
  }
}
