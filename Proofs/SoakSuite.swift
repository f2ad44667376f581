import ArgumentParser
import ConcordLog
import ConcordPlatform
import ConcordWire
import DaemonDriving
import Foundation

/// Clients send without pause and windows watch for a long while; every interval the suite
/// reads the throughput, the daemon's resident memory and its open file descriptors. Clients
/// connect anew each interval, so connections come and go all along.
struct SoakSuite: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "soak",
    abstract: "Long steady load: throughput must stay steady, memory flat, file descriptors constant.")

  @Option(help: "How long the load runs, in minutes.") var minutes = 10.0
  @Option(help: "Clients sending concurrently, each with one action in flight.") var clients = 20
  @Option(help: "Windows attached all along (on the counter, the notes and presence).") var windows = 50
  @Option(help: "Seconds between two readings.") var interval = 10.0

  struct Reading {
    var second: Double
    var acksPerSecond: Double
    var p99: Double
    var resident: Int?
    var descriptors: Int?
    var walBytes: Int?
  }

  func run() throws {
    let work = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: work) }
    let home = try DaemonUnderTest.makeHome(named: "daemon", in: work)
    let daemon = try DaemonUnderTest(home: home, outputIn: work)
    try daemon.waitUntilServing()
    defer { daemon.stop() }
    print("soak: \(clients) clients and \(windows) windows for \(minutes) minutes, a reading every \(interval) s")

    let scopes = (0..<windows).map { ["counter", "notes", "presence"][$0 % 3] }
    let watchers = WatchingWindows(socketPath: daemon.socketPath, scopes: scopes)
    let mode = ClientMode()
    let group = DispatchGroup()
    onThread(group) { watchers.run(mode: mode) }

    var readings: [Reading] = []
    let started = monotonicNanoseconds()
    let end = started + UInt64(minutes * 60 * 1e9)
    var chunk = 0
    while monotonicNanoseconds() < end {
      chunk += 1
      let sample = try closedLoop(path: daemon.socketPath, clients: clients, seconds: interval, warmup: 0, run: "soak\(chunk)")
      let reading = Reading(
        second: Double(monotonicNanoseconds() - started) / 1e9, acksPerSecond: sample.perSecond,
        p99: sample.percentile(0.99), resident: daemon.residentBytes, descriptors: daemon.openFileCount,
        walBytes: (try? FileManager.default.attributesOfItem(atPath: ConcordHome(home).log.path + "-wal"))?[.size] as? Int)
      readings.append(reading)
      print(
        String(format: "%6.0f s  %8.0f acks/s  p99 %@  rss %@  fds %@  wal %@", reading.second, reading.acksPerSecond,
          micro(reading.p99), mebibytes(reading.resident), reading.descriptors.map(String.init) ?? "–", mebibytes(reading.walBytes)))
      guard daemon.isRunning else { throw DriveError("the daemon exited: \(daemon.child.output)") }
    }
    mode.set(.stop)
    group.wait()
    guard report(readings, updates: watchers.updates) else { throw ExitCode(1) }
  }

  /// Prints the summary; false when the soak found a problem (or had too few readings to say).
  private func report(_ readings: [Reading], updates: Int) -> Bool {
    guard readings.count >= 3, let first = readings.first, let last = readings.last else {
      print("\nonly \(readings.count) readings: run longer than three intervals")
      return false
    }
    let middle = readings[readings.count / 2]
    let rates = readings.map(\.acksPerSecond)
    let mean = rates.reduce(0, +) / Double(rates.count)
    // Steady: no interval more than 25% off the mean. Flat: the second half grows memory by
    // less than 10% (the first readings include warming caches and the log's pages).
    // A reading that could not be taken proves nothing: it fails the check it belongs to. So
    // does a daemon that answers nothing (steadily) or windows that were sent nothing.
    let steady = mean > 0 && rates.allSatisfy { abs($0 - mean) <= 0.25 * mean }
    var growth = Double.nan
    if let end = last.resident, let half = middle.resident { growth = Double(end - half) / Double(max(1, half)) }
    let flat = growth < 0.10
    var descriptorsKept = false
    if let end = last.descriptors, let start = first.descriptors { descriptorsKept = end <= start + 2 }
    var table = SummaryTable(["soak", "figure", "must be"])
    table.add(["duration", String(format: "%.0f s (%d readings)", last.second, readings.count), ""])
    let updated = windows == 0 || updates > 0
    table.add(["load", "\(clients) clients, \(windows) windows (\(updates) updates read)", windows == 0 ? "" : "updates read > 0: \(updated ? "yes" : "NO")"])
    table.add([
      "acks/s: mean, min, max",
      String(format: "%.0f, %.0f, %.0f", mean, rates.min() ?? 0, rates.max() ?? 0), "each within 25% of the mean: \(steady ? "yes" : "NO")",
    ])
    table.add(["ack p99: first, middle, last", "\(micro(first.p99)), \(micro(middle.p99)), \(micro(last.p99))", ""])
    table.add([
      "daemon RSS: start, middle, end", "\(mebibytes(first.resident)), \(mebibytes(middle.resident)), \(mebibytes(last.resident))",
      String(format: "second half grows < 10%%: %@ (%+.1f%%)", flat ? "yes" : "NO", growth * 100),
    ])
    table.add([
      "daemon file descriptors: start, end",
      "\(first.descriptors.map(String.init) ?? "–"), \(last.descriptors.map(String.init) ?? "–")",
      "no growth: \(descriptorsKept ? "yes" : "NO")",
    ])
    table.print()
    let held = steady && flat && descriptorsKept && updated
    print(held ? "\nsteady, flat and without leaks" : "\nTHE SOAK FOUND A PROBLEM")
    return held
  }
}
