import DaemonDriving
import Foundation

/// This build's `concordd` against another build of it (another revision's), in one run on one
/// machine: rounds that alternate the two, each daemon on a fresh home, so that what the
/// machine is doing meanwhile falls on both alike. Prints each round's figures and the ratio
/// of this build to the other, and their ranges over the rounds.
struct RevisionComparison {
  /// The other build's `concordd`.
  let other: String
  let seconds: Double
  let rounds: Int
  let quick: Bool

  /// One daemon's figures in one round.
  struct Figures {
    var oneClient: LoadFigures
    var sixteenClients: LoadFigures
    /// An update to 100 windows, send → last window, p99 µs.
    var fanOut99: Double
  }

  func run(in directory: URL) throws {
    let this = DaemonUnderTest.binary.path
    print("this concordd (\(this)) against \(other): \(rounds) rounds, \(seconds) s per load, alternating\n")
    var pairs: [(this: Figures, other: Figures)] = []
    for round in 1...rounds {
      // Which goes first alternates too: neither always meets a machine just warmed up.
      let order = round % 2 == 1 ? [this, other] : [other, this]
      var figures: [String: Figures] = [:]
      for binary in order { figures[binary] = try measure(binary, round: round, in: directory) }
      let pair = (this: figures[this]!, other: figures[other]!)
      pairs.append(pair)
      print("round \(round): 1 client \(Int(pair.this.oneClient.perSecond)) vs \(Int(pair.other.oneClient.perSecond)) acks/s, "
        + "16 clients \(Int(pair.this.sixteenClients.perSecond)) vs \(Int(pair.other.sixteenClients.perSecond)), "
        + "fan-out p99 \(Int(pair.this.fanOut99)) vs \(Int(pair.other.fanOut99)) µs")
    }
    print("")
    print("this ÷ other, per round (throughput: higher is better; p99: lower is better)")
    report("1 client, acks/s", pairs.map { $0.this.oneClient.perSecond / $0.other.oneClient.perSecond })
    report("1 client, p99", pairs.map { $0.this.oneClient.p99 / $0.other.oneClient.p99 })
    report("16 clients, acks/s", pairs.map { $0.this.sixteenClients.perSecond / $0.other.sixteenClients.perSecond })
    report("16 clients, p99", pairs.map { $0.this.sixteenClients.p99 / $0.other.sixteenClients.p99 })
    report("update to 100 windows, p99", pairs.map { $0.this.fanOut99 / $0.other.fanOut99 })
  }

  private func measure(_ binary: String, round: Int, in directory: URL) throws -> Figures {
    let home = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let daemon = try DaemonUnderTest(home: home, outputIn: directory, binary: binary)
    defer { daemon.stop() }
    try daemon.waitUntilServing()
    func load(_ clients: Int) throws -> LoadFigures {
      let sample = try closedLoop(path: daemon.socketPath, clients: clients, seconds: seconds, run: "r\(round)-\(clients)")
      return LoadFigures(perSecond: sample.perSecond, p50: sample.percentile(0.5), p99: sample.percentile(0.99))
    }
    let one = try load(1)
    let sixteen = try load(16)
    let fan = try fanOut(path: daemon.socketPath, windows: 100, rounds: quick ? 100 : 300, run: "r\(round)-fan")
    return Figures(oneClient: one, sixteenClients: sixteen, fanOut99: fan.toAll.percentile(0.99))
  }

  private func report(_ name: String, _ ratios: [Double]) {
    let sorted = ratios.sorted()
    let median = sorted[sorted.count / 2]
    let each = ratios.map { String(format: "%.2f", $0) }.joined(separator: ", ")
    print("  " + DaemonBenchmarks.pad(name, 30) + String(format: "median %.2f×, range %.2f–%.2f", median, sorted.first!, sorted.last!)
      + " (\(each))")
  }
}
