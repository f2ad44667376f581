import ArgumentParser
import DaemonDriving
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A well-behaved window sends and measures its ack latency while, one at a time, a hostile peer
/// does its worst: connects from another account, floods without reading, opens thousands of
/// connections, or sends one byte a second. The daemon must stay responsive to the good window.
struct HostileSuite: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "hostile",
    abstract: "Hostile peers, one at a time, while a good window measures its ack latency.",
    subcommands: [OtherAccountPeer.self])

  @Option(help: "Seconds the good window is measured during each attack.") var seconds = 5.0
  @Option(help: "Connections the crowd opens.") var connections = 5_000
  @Option(help: "Peers sending one byte a second.") var tricklers = 50

  func run() throws {
    let work = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: work) }
    let home = try DaemonUnderTest.makeHome(named: "daemon", in: work)
    let daemon = try DaemonUnderTest(home: home, outputIn: work)
    try daemon.waitUntilServing()
    defer { daemon.stop() }
    let socket = daemon.socketPath
    print("hostile peers: the good window is measured for \(seconds) s during each")

    // Responsive: an ack at least every 100 ms at worst, and a p99 within 5× the quiet one (or
    // under 10 ms). A peer that floods without reading is held to more: it is not read past its
    // unanswered actions, so the good window's p99 stays within 2× the quiet one and its worst
    // under 20 ms. One that floods taking its answers shares every commit with the good window
    // (WriterShare), which still waits for the commit in progress: the lenient bound.
    let lenient = Bound(p99Times: 5, p99Floor: 10_000, worst: 100_000)
    let attacks: [(name: String, attack: HostilePeers.Attack, bound: Bound)] = [
      ("no attack (baseline)", HostilePeers.idle, lenient),
      ("a peer of another account connecting again and again", HostilePeers.otherAccount(socket: socket, home: home, seconds: seconds + 0.6), lenient),
      ("a peer flooding sends without reading", HostilePeers.flood(socket: socket), Bound(p99Times: 2, p99Floor: 0, worst: 20_000)),
      ("a peer flooding sends, taking answers but never waiting", HostilePeers.pipelineFlood(socket: socket), lenient),
      ("a peer opening \(connections.formatted()) connections", HostilePeers.crowd(socket: socket, count: connections), lenient),
      ("\(tricklers) peers sending one byte a second", HostilePeers.trickle(socket: socket, peers: tricklers), lenient),
      ("a peer sending lines at the boundaries (client ids, integers, 1 MiB, half-close)", BoundaryPeers.lines(socket: socket), lenient),
    ]
    var table = SummaryTable(["attack", "good window acks/s", "p50", "p99", "max", "the attacker", "daemon RSS, fds after", "held"])
    var baselineP99 = 0.0
    var failures = 0
    var skipped = 0
    for (index, entry) in attacks.enumerated() {
      print("• \(entry.name)…")
      let stop = ClientMode()
      let report = HostilePeers.Report()
      let group = DispatchGroup()
      onThread(group) { entry.attack(stop, report) }
      usleep(500_000)  // the attack under way
      let sample = try closedLoop(path: socket, clients: 1, seconds: seconds, warmup: 0, run: "good\(index)")
      stop.set(.stop)
      group.wait()
      usleep(200_000)
      let p99 = sample.percentile(0.99)
      if index == 0 { baselineP99 = p99 }
      let responsive = daemon.isRunning && sample.latencies.count > 0
        && Double(sample.latencies.max() ?? 0) / 1000 < entry.bound.worst
        && p99 <= max(entry.bound.p99Floor, entry.bound.p99Times * baselineP99)
      let held = responsive && !report.failed
      if report.skipped { skipped += 1 } else if !held { failures += 1 }
      table.add([
        entry.name, String(format: "%.0f", sample.perSecond), micro(sample.percentile(0.5)), micro(p99),
        micro(Double(sample.latencies.max() ?? 0) / 1000), report.text,
        "\(mebibytes(daemon.residentBytes)), \(daemon.openFileCount ?? 0)", report.skipped ? "skipped" : held ? "yes" : "NO",
      ])
      print("  \(report.text); good window p99 \(micro(p99))")
    }
    table.print()
    // The boundary peers must leave a log that verifies and a daemon that boots from it.
    daemon.stop()
    let inspection = try LogInspection(home: home)
    let restarted = try DaemonUnderTest(home: home, outputIn: work)
    let boots = (try? restarted.waitUntilServing(timeout: 60)) != nil
    restarted.stop()
    print("after every attack: the log \(inspection.verification.map { "does NOT verify: \($0)" } ?? "verifies") (\(inspection.lastSeq.formatted()) entries, \(inspection.duplicates) duplicates); a restart \(boots ? "boots" : "does NOT boot")")
    if inspection.verification != nil || inspection.duplicates > 0 || !boots { failures += 1 }
    print(failures == 0 ? "\nthe daemon stayed responsive through every attack run" : "\n\(failures) ATTACKS SLOWED THE GOOD WINDOW OR DID NOT RUN")
    if skipped > 0 { print("\(skipped) skipped: they need root (run the suite as root to show them)") }
    if failures > 0 { throw ExitCode(1) }
  }
}

/// How slow the good window may be during an attack: its p99 within `p99Times` the quiet one
/// (or under `p99Floor` µs), and its worst ack under `worst` µs.
struct Bound {
  var p99Times: Double
  var p99Floor: Double
  var worst: Double
}

/// `concord-prove hostile other-account-peer`: connects again and again as another account and
/// counts how the daemon answered (run by the hostile suite through setuid).
struct OtherAccountPeer: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "other-account-peer", abstract: "Connect as another account (used by the hostile suite).",
    shouldDisplay: false)

  @Option var socket: String
  @Option var uid: UInt32
  @Option var gid: UInt32
  @Option(name: .customLong("for")) var duration: Double

  func run() throws {
    guard setgid(gid) == 0, setuid(uid) == 0 else { throw DriveError("cannot become uid \(uid)") }
    let end = monotonicNanoseconds() + UInt64(duration * 1e9)
    var refused = 0
    var welcomed = 0
    var failed = 0
    while monotonicNanoseconds() < end {
      guard let peer = try? LineSocket(path: socket) else {
        failed += 1
        usleep(1_000)
        continue
      }
      try? peer.write(LineSocket.hello)
      let answer = (try? peer.expectLine(timeout: 2)) ?? ""
      if answer.contains("may not use this daemon") { refused += 1 } else if answer.contains("welcome") { welcomed += 1 }
    }
    print("\(refused) refused, \(welcomed) welcomed, \(failed) could not connect")
    // The point of the attack: the daemon must turn this account away, every time.
    if welcomed > 0 || refused == 0 { throw ExitCode(1) }
  }
}
