import DaemonDriving
import Foundation

/// The daemon's durable path against Redis (`appendfsync always`) and the C reference daemon,
/// measured in one run so the ratios compare like with like; the other measures are in
/// ``DaemonBenchmarks/usage``, which `--help` prints.
@main
struct DaemonBenchmarks {
  static let usage = """
    concordd's benchmarks, release build (scripts/bench.sh builds it and installs what they need):

      scripts/bench.sh daemon [--quick] [--clients N]
          concordd against Redis (appendfsync always) and the C reference daemon, 1 and 16
          clients (or N), then the fan-out and the boot below: about 3 minutes
      scripts/bench.sh daemon --against-revision REV [--rounds N] [--quick]
          this build's concordd against REV's (built in .build-against/REV), alternating in one
          run: closed loops of 1 and 16 clients and an update to 100 windows, each round on
          fresh homes; the ratios this ÷ REV per round, and their range
      concord-daemon-bench --against SOCKET [--clients N]
          only the closed loops, against a daemon already running on SOCKET
      scripts/bench.sh remote [--quick] [--rounds N]
          windows through OpenSSH (a real sshd on loopback) beside the local socket
      concord-daemon-bench fan-out [--quick] [--after-load]
          one update to 100 and to 1,000 windows, alone (or after the closed loops of 1 and 16
          clients on the same daemon, as in the full run): about 15 seconds
      concord-daemon-bench inspect [--entries N] [--quick]
          the inspector on an N-entry log with a snapshot every 1,000 (default 1,000,000; 100,000
          with --quick): open, jump to a seq, an entry's change; goal each < 200 ms
      concord-daemon-bench boot [--entries N] [--distinct] [--keep DIR]
          boot, `log verify` and `state --at` on an N-entry log without a snapshot (default
          1,000,000; --distinct gives every entry its own text); --keep leaves the home (log and
          key) in DIR, to profile a replay

    The daemon measured is the concordd beside this program.
    """

  static func main() throws {
    if CommandLine.arguments.contains("--help") || CommandLine.arguments.contains("-h") {
      print(usage)
      return
    }
    let quick = CommandLine.arguments.contains("--quick")
    let seconds = quick ? 2.0 : 5.0
    let directory = URL(filePath: "/tmp/cdbench-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    if CommandLine.arguments.contains("fan-out") {
      // One update to many windows, alone: `concord-daemon-bench fan-out [--quick]`.
      let home = DaemonUnderTest.makeHome()
      defer { try? FileManager.default.removeItem(at: home) }
      let daemon = try DaemonUnderTest(home: home, outputIn: directory)
      defer { daemon.stop() }
      try daemon.waitUntilServing()
      if CommandLine.arguments.contains("--after-load") {
        for count in [1, 16] { _ = try closedLoop(path: daemon.socketPath, clients: count, seconds: seconds, run: "c\(count)") }
      }
      for (windows, rounds) in [(100, quick ? 200 : 1000), (1_000, quick ? 100 : 300)] {
        let fan = try fanOut(path: daemon.socketPath, windows: windows, rounds: rounds, run: "fan\(windows)")
        print("update to \(windows.formatted()) windows, send → last window: p50 \(micro(fan.toAll.percentile(0.5))),"
          + " p99 \(micro(fan.toAll.percentile(0.99))), max \(micro(Double(fan.toAll.latencies.max() ?? 0) / 1000))"
          + " (ack p50 \(micro(fan.ack.percentile(0.5))))")
        // Whether a slow round was slow to commit (its ack late too) or slow to write.
        let slowest = fan.toAll.latencies.indices.sorted { fan.toAll.latencies[$0] > fan.toAll.latencies[$1] }.prefix(5)
        print("  slowest rounds, last window (its ack): "
          + slowest.map { "#\($0 + 1) \(micro(Double(fan.toAll.latencies[$0]) / 1000)) (\(micro(Double(fan.ack.latencies[$0]) / 1000)))" }.joined(separator: ", "))
      }
      return
    }
    if let other = argument(after: "compare") {
      let rounds = max(1, count(after: "--rounds") ?? (quick ? 2 : 5))
      try RevisionComparison(other: other, seconds: seconds, rounds: rounds, quick: quick).run(in: directory)
      return
    }
    if CommandLine.arguments.contains("boot") {
      let entries = max(1, count(after: "--entries") ?? (quick ? 100_000 : 1_000_000))
      var boot = BootBenchmark(entries: entries, tail: 999, distinct: CommandLine.arguments.contains("--distinct"))
      boot.keep = argument(after: "--keep").map { URL(filePath: $0) }
      boot.report(try boot.run(in: directory, commands: true))
      return
    }
    if CommandLine.arguments.contains("inspect") {
      let entries = max(1_000, count(after: "--entries") ?? (quick ? 100_000 : 1_000_000))
      try InspectBenchmark(entries: entries).run()
      return
    }
    if CommandLine.arguments.contains("remote") {
      let rounds = max(1, count(after: "--rounds") ?? (quick ? 1 : 3))
      try RemoteBenchmark(seconds: seconds, rounds: rounds).run(in: directory)
      return
    }
    print("concordd benchmarks (\(quick ? "quick" : "full") run; \(seconds) s per load; synchronous=FULL everywhere)\n")
    let clientCounts = count(after: "--clients").map { [$0] } ?? [1, 16]
    if let path = argument(after: "--against") {
      // Load a daemon that is already running (to profile it): closed loops only.
      for count in clientCounts {
        let sample = try closedLoop(path: path, clients: count, seconds: seconds, run: "\(UUID().uuidString.prefix(6))-\(count)")
        print("\(count) clients: \(Int(sample.perSecond)) acks/s, p50 \(micro(sample.percentile(0.5))), p99 \(micro(sample.percentile(0.99)))")
      }
      return
    }

    // concordd: closed-loop windows sending the counter's increment.
    print("concordd: closed loop with \(clientCounts.map(String.init).joined(separator: " and ")) client(s)…")
    let home = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let daemon = try DaemonUnderTest(home: home, outputIn: directory)
    try daemon.waitUntilServing()
    var concord: [Int: LoadFigures] = [:]
    for count in clientCounts {
      let sample = try closedLoop(path: daemon.socketPath, clients: count, seconds: seconds, run: "c\(count)")
      concord[count] = LoadFigures(perSecond: sample.perSecond, p50: sample.percentile(0.5), p99: sample.percentile(0.99))
    }
    print("concordd: one update to 100 windows, then to 1,000…")
    let fan = try fanOut(path: daemon.socketPath, windows: 100, rounds: quick ? 200 : 1000, run: "fan")
    let fanThousand = try fanOut(path: daemon.socketPath, windows: 1_000, rounds: quick ? 100 : 300, run: "fan1000")
    daemon.stop()

    var redis: [Int: LoadFigures] = [:]
    if let anchor = RedisAnchor() {
      print("redis-server (appendonly yes, appendfsync always): redis-benchmark -t incr…")
      redis = try anchor.measure(clients: clientCounts, requests: { $0 == 1 ? (quick ? 10_000 : 30_000) : (quick ? 50_000 : 200_000) }, in: directory)
    } else {
      print("redis-server or redis-benchmark not found: install redis-server and redis-tools (scripts/bench.sh does)")
    }
    print("the C reference (Benchmarks/Reference): ref_daemon under ref_load, without and with updates…")
    let reference = try ReferenceDaemonAnchor().measure(clients: clientCounts, seconds: seconds, in: directory)

    let entries = quick ? 100_000 : 1_000_000
    print("boot with a \(entries.formatted())-entry log…")
    let boot = try BootBenchmark(entries: entries, tail: 999).run(in: directory)

    print("")
    // "vs C ref": against the reference answering each request alone; "vs C+upd": against the
    // reference that also sends every connection an update after each commit, the work
    // concordd's attached windows receive (like with like).
    print(pad("load", 44), pad("acks/s", 10), pad("p50 µs", 9), pad("p99 µs", 9), pad("vs Redis", 9), pad("vs C ref", 9), pad("vs C+upd", 9), "goal")
    for count in clientCounts {
      guard let ours = concord[count] else { continue }
      let ratio = redis[count].map { ours.perSecond / $0.perSecond }
      let goal: String
      if count == 1 {
        let met = (ratio ?? 0) >= 0.5 && ours.p99 < 1000
        goal = "≥ 0.5× Redis, p99 < 1 ms: \(met ? "met" : "MISSED")"
      } else {
        goal = "≥ 1× Redis: \((ratio ?? 0) >= 1 ? "met" : "MISSED")"
      }
      row(
        "concordd, \(count) client\(count == 1 ? "" : "s")", ours, ratio, reference.plain[count].map { ours.perSecond / $0.perSecond },
        reference.withUpdates[count].map { ours.perSecond / $0.perSecond }, goal)
      if let figures = redis[count] { row("  Redis INCR, appendfsync always", figures, nil, nil, nil, "(anchor)") }
      if let figures = reference.plain[count] { row("  C reference daemon", figures, nil, nil, nil, "(physical limit)") }
      if let figures = reference.withUpdates[count] { row("  C reference daemon, updates to all", figures, nil, nil, nil, "(like with like)") }
    }
    let toAll99 = fan.toAll.percentile(0.99)
    print("")
    print("update to 100 windows, send → last window: p50 \(micro(fan.toAll.percentile(0.5))), p99 \(micro(toAll99))"
      + " (ack p50 \(micro(fan.ack.percentile(0.5)))); goal p99 ≤ 5 ms: \(toAll99 <= 5000 ? "met" : "MISSED")")
    let thousand99 = fanThousand.toAll.percentile(0.99)
    print("update to 1,000 windows, send → last window: p50 \(micro(fanThousand.toAll.percentile(0.5))), p99 \(micro(thousand99))"
      + " (ack p50 \(micro(fanThousand.ack.percentile(0.5)))); goal p99 < 10 ms: \(thousand99 < 10_000 ? "met" : "MISSED")")
    print("boot, \(entries.formatted()) entries (\(boot.logBytes / 1_048_576) MiB): without a snapshot "
      + String(format: "%.2f s", boot.withoutSnapshot) + ", with a snapshot 999 entries back "
      + String(format: "%.3f s", boot.withSnapshot) + "; goal < 1 s with a snapshot: \(boot.withSnapshot < 1 ? "met" : "MISSED")")
  }

  /// The argument after `option` on the command line, if it is there.
  static func argument(after option: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: option), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
  }

  /// The number after `option`, if it is there and is one.
  static func count(after option: String) -> Int? { argument(after: option).flatMap { Int($0) } }

  static func row(
    _ name: String, _ figures: LoadFigures, _ redis: Double?, _ reference: Double?, _ referenceWithUpdates: Double?,
    _ goal: String
  ) {
    func ratio(_ value: Double?) -> String { pad(value.map { String(format: "%.2f×", $0) } ?? "", 9) }
    print(
      pad(name, 44), pad(String(format: "%.0f", figures.perSecond), 10), pad(String(format: "%.0f", figures.p50), 9),
      pad(String(format: "%.0f", figures.p99), 9), ratio(redis), ratio(reference), ratio(referenceWithUpdates), goal)
  }

  static func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
  }
}
