import ConcordClient
import DaemonDriving
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// concordd reached through OpenSSH (`ssh` running `concord dial-stdio` on a real `sshd` on
/// loopback) beside its local socket, in one run: closed-loop windows on the counter, the
/// loads alternating round by round so that the machine's noise falls on both alike. Each
/// load also reads, from /proc, the CPU every process on the way spent per acknowledged action.
///
///     scripts/bench.sh remote [--quick] [--rounds N]
struct RemoteBenchmark {
  var seconds: Double
  var rounds: Int

  /// A way to the daemon, measured with some numbers of windows.
  struct Path {
    var name: String
    var windows: [Int]
    /// The `hello` its windows say: through ssh, the pace `concord attach --host` asks for.
    var greeting = LineSocket.hello
    var connect: () throws -> LineSocket
  }

  /// The figures of one path and window count, over the rounds.
  struct Measured {
    var loads: [LoadFigures] = []
    var acks = 0
    var wall = 0.0
    var cpu: [String: Double] = [:]
  }

  func run(in directory: URL) throws {
    let user = String(cString: getpwuid(getuid()).pointee.pw_name)
    let server = try LoopbackSSHServer(users: [user])
    defer { server.stop() }
    // The shared connections' sockets: a short directory of this run's own, ended with it.
    let runtime = "/tmp/cdrb-\(UUID().uuidString.prefix(6))"
    try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    setenv("XDG_RUNTIME_DIR", runtime, 1)
    defer {
      _ = try? runToEnd("/usr/bin/pkill", ["-f", runtime + "/"])
      try? FileManager.default.removeItem(atPath: runtime)
    }

    let home = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let daemon = try DaemonUnderTest(home: home, outputIn: directory)
    defer { daemon.stop() }
    try daemon.waitUntilServing()

    let target = try SSHTarget("ssh://\(user)@testbox\(home.path)")
    let concord = DaemonUnderTest.binary.deletingLastPathComponent().appending(path: "concord").path
    var shared = ProcessInfo.processInfo.environment
    shared["CONCORD_SSH_COMMAND"] = "ssh -F \(server.clientConfig)"
    shared["CONCORD_REMOTE_COMMAND"] = concord
    // What a window does: a connection through this laptop's relay to the server.
    // (Its hello is said by the closed loop: the relay's channel opens on an empty greeting.)
    let throughRelay: () throws -> LineSocket = {
      let fd = try RelayLink.open(to: target, greeting: [], timeout: 20, environment: shared)
      return LineSocket(fileDescriptor: fd) { close(fd) }
    }
    // Without the relay: an ssh channel of its own for each window, on one shared connection.
    let channelPerWindow: () throws -> LineSocket = {
      let link = try SSHTransport.open(target, environment: shared)
      return LineSocket(fileDescriptor: link.fileDescriptor, close: link.close)
    }
    try probe(target: target, environment: shared)

    // What a window through ssh says in its hello, as `concord attach --host` does.
    let paced = LineSocket.hello(updateIntervalMilliseconds: DaemonAddress.ssh(target).updateIntervalMilliseconds)
    let paths = [
      Path(name: "local socket", windows: [1, 16]) { try LineSocket(path: daemon.socketPath) },
      Path(name: "ssh, through the relay", windows: [1, 16], greeting: paced, connect: throughRelay),
      Path(name: "ssh, relay, every update", windows: [16], connect: throughRelay),
      Path(name: "ssh, a channel per window", windows: [16], greeting: paced, connect: channelPerWindow),
    ]
    let group: (pid_t, String, String) -> String? = { pid, comm, cmdline in
      if pid == daemon.pid { return "concordd" }
      if pid == getpid() { return "windows" }
      // ssh's own command line names the remote command too: it is asked first.
      if comm == "ssh", cmdline.contains(runtime) || cmdline.contains(server.directory.path) { return "ssh" }
      if comm == "concord", cmdline.contains("dial-stdio") { return "dial-stdio" }
      if comm == "concord", cmdline.contains("relay") { return "relay" }
      if comm.hasPrefix("sshd") { return "sshd" }
      return nil
    }

    print("concordd through OpenSSH beside its local socket: \(rounds) rounds of \(seconds) s per load, alternating\n")
    var measured: [String: Measured] = [:]
    for round in 1...rounds {
      for count in [1, 16] {
        for (number, path) in paths.enumerated() where path.windows.contains(count) {
          var before = ProcessCPU()
          var cpu: [String: Double] = [:]
          // Each load's windows are new clients: a pair (client, cseq) sent again would be
          // answered as a retry, without a commit.
          let sample = try closedLoop(
            clients: count, seconds: seconds, run: "r\(round)-\(count)-\(number)",
            measuring: { starting in
              if starting { before = ProcessCPU.read(group: group) } else { cpu = ProcessCPU.read(group: group).since(before) }
            }, greeting: path.greeting, connect: path.connect)
          let key = "\(path.name), \(count) window\(count == 1 ? "" : "s")"
          measured[key, default: Measured()].loads.append(
            LoadFigures(perSecond: sample.perSecond, p50: sample.percentile(0.5), p99: sample.percentile(0.99)))
          measured[key]!.acks += sample.latencies.count
          measured[key]!.wall += sample.seconds
          measured[key]!.cpu.merge(cpu) { $0 + $1 }
          print("  round \(round): \(key): \(Int(sample.perSecond)) acks/s, p50 \(micro(sample.percentile(0.5))), p99 \(micro(sample.percentile(0.99)))")
        }
      }
    }
    report(measured, paths: paths)
  }

  /// One connection through ssh that must be greeted: else the reason, in ssh's words.
  private func probe(target: SSHTarget, environment: [String: String]) throws {
    let link = try SSHTransport.open(target, environment: environment)
    let socket = LineSocket(fileDescriptor: link.fileDescriptor) {}
    defer { link.close() }
    do {
      try socket.write(LineSocket.hello)
      guard try socket.expectLine(timeout: 20).contains(#""type":"welcome""#) else { throw DriveError("no welcome") }
    } catch {
      throw DriveError("the daemon could not be reached through ssh: \(link.failure(for: target))")
    }
  }

  private func report(_ measured: [String: Measured], paths: [Path]) {
    let groups = ["concordd", "windows", "relay", "ssh", "sshd", "dial-stdio"]
    print("")
    print(
      DaemonBenchmarks.pad("load", 44), DaemonBenchmarks.pad("acks/s (range)", 22), DaemonBenchmarks.pad("p50 µs", 16),
      DaemonBenchmarks.pad("p99 µs", 16), "vs local")
    for count in [1, 16] {
      let local = measured["local socket, \(count) window\(count == 1 ? "" : "s")"]
      for path in paths where path.windows.contains(count) {
        let key = "\(path.name), \(count) window\(count == 1 ? "" : "s")"
        guard let figures = measured[key] else { continue }
        let ratios = local.map { local in zip(figures.loads, local.loads).map { $0.perSecond / $1.perSecond } } ?? []
        print(
          DaemonBenchmarks.pad(key, 44), DaemonBenchmarks.pad(range(figures.loads.map(\.perSecond), "%.0f"), 22),
          DaemonBenchmarks.pad(range(figures.loads.map(\.p50), "%.0f"), 16),
          DaemonBenchmarks.pad(range(figures.loads.map(\.p99), "%.0f"), 16),
          path.name == "local socket" ? "" : range(ratios, "%.2f") + "×")
      }
    }
    let goal = zip(measured["ssh, through the relay, 16 windows"]?.loads ?? [], measured["local socket, 16 windows"]?.loads ?? [])
      .map { $0.perSecond / $1.perSecond }
    print("\ngoal: ssh with 16 windows ≥ 0.5× the local socket's acks/s: \(!goal.isEmpty && goal.min()! >= 0.5 ? "met" : "MISSED") (\(range(goal, "%.2f"))×)")

    print("\nCPU per acknowledged action (µs), summed over the rounds, by process; 'busy' is cores in use (of \(ProcessInfo.processInfo.activeProcessorCount))")
    print(DaemonBenchmarks.pad("load", 44), groups.map { DaemonBenchmarks.pad($0, 11) }.joined(), DaemonBenchmarks.pad("total", 9), "busy")
    for count in [1, 16] {
      for path in paths where path.windows.contains(count) {
        let key = "\(path.name), \(count) window\(count == 1 ? "" : "s")"
        guard let figures = measured[key], figures.acks > 0 else { continue }
        let perAction = groups.map { (figures.cpu[$0] ?? 0) / Double(figures.acks) * 1e6 }
        let total = perAction.reduce(0, +)
        print(
          DaemonBenchmarks.pad(key, 44), perAction.map { DaemonBenchmarks.pad(String(format: "%.1f", $0), 11) }.joined(),
          DaemonBenchmarks.pad(String(format: "%.1f", total), 9),
          String(format: "%.2f", figures.cpu.values.reduce(0, +) / figures.wall))
      }
    }
  }

  /// `low–high` of `values` (one value when they agree), each written with `format`.
  private func range(_ values: [Double], _ format: String) -> String {
    guard let low = values.min(), let high = values.max() else { return "–" }
    let (a, b) = (String(format: format, low), String(format: format, high))
    return a == b ? a : "\(a)–\(b)"
  }
}
