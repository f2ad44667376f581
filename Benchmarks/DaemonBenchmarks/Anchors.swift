import DaemonDriving
import Foundation

/// One measured load: throughput and latency percentiles in microseconds.
struct LoadFigures {
  var perSecond: Double
  var p50: Double
  var p99: Double
}

/// Redis with `appendonly yes` and `appendfsync always` over a Unix socket, driven by
/// `redis-benchmark -t incr`: the durable-throughput anchor of the daemon benchmark.
struct RedisAnchor {
  let server: String
  let benchmark: String

  init?() {
    guard let server = which("redis-server"), let benchmark = which("redis-benchmark") else { return nil }
    (self.server, self.benchmark) = (server, benchmark)
  }

  func measure(clients: [Int], requests: (Int) -> Int, in directory: URL) throws -> [Int: LoadFigures] {
    let home = directory.appending(path: "redis")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    let socket = home.appending(path: "redis.sock").path
    let redis = try ChildProcess(server, [
      "--port", "0", "--unixsocket", socket, "--unixsocketperm", "700", "--dir", home.path,
      "--appendonly", "yes", "--appendfsync", "always", "--save", "", "--daemonize", "no",
    ], outputIn: directory)
    defer { redis.stop() }
    try redis.wait(timeout: 10, for: "redis-server") { FileManager.default.fileExists(atPath: socket) }
    var figures: [Int: LoadFigures] = [:]
    for count in clients {
      let csv = try runToEnd(benchmark, ["-s", socket, "-t", "incr", "-c", "\(count)", "-n", "\(requests(count))", "--csv"])
      figures[count] = try Self.parse(csv)
    }
    return figures
  }

  /// `redis-benchmark --csv`: a header row naming the columns, then one row for INCR.
  static func parse(_ csv: String) throws -> LoadFigures {
    let rows = csv.split(whereSeparator: \.isNewline).map {
      $0.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
    }
    guard let header = rows.first(where: { $0.first == "test" }), let row = rows.first(where: { $0.first == "INCR" }),
      let rps = header.firstIndex(of: "rps").flatMap({ Double(row[$0]) }),
      let p50 = header.firstIndex(of: "p50_latency_ms").flatMap({ Double(row[$0]) }),
      let p99 = header.firstIndex(of: "p99_latency_ms").flatMap({ Double(row[$0]) })
    else { throw DriveError("cannot read redis-benchmark's output: \(csv)") }
    return LoadFigures(perSecond: rps, p50: p50 * 1000, p99: p99 * 1000)
  }
}

/// The C reference daemon (Benchmarks/Reference: epoll, XChaCha20-Poly1305, SQLite group commit
/// with synchronous=FULL) under its closed-loop load generator: the physical limit of the durable
/// path. Measured twice: answering each request alone, and also sending every connection an
/// update after each commit, as concordd does for windows attached to the counter.
struct ReferenceDaemonAnchor {
  /// What the reference did at each client count, without and with an update to every
  /// connection after each commit.
  struct Figures {
    var plain: [Int: LoadFigures] = [:]
    var withUpdates: [Int: LoadFigures] = [:]
  }

  /// The repository this benchmark was built from.
  static let repository = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  func measure(clients: [Int], seconds: Double, in directory: URL) throws -> Figures {
    let build = directory.appending(path: "reference")
    _ = try runToEnd(Self.repository.appending(path: "scripts/build-reference.sh").path, [build.path])
    var figures = Figures()
    for updates in [false, true] {
      let socket = directory.appending(path: "ref-\(updates ? "updates" : "plain").sock").path
      let daemon = try ChildProcess(build.appending(path: "ref_daemon").path, [
        socket, directory.appending(path: "ref-\(updates ? "updates" : "plain").sqlite").path, "FULL",
      ] + (updates ? ["updates"] : []), outputIn: directory)
      defer { daemon.stop() }
      try daemon.wait(timeout: 10, for: "ref_daemon") { FileManager.default.fileExists(atPath: socket) }
      for count in clients {
        // Payload 200 bytes, about an action.
        let text = try runToEnd(build.appending(path: "ref_load").path, [socket, "\(count)", "\(seconds)", "200"])
        if updates { figures.withUpdates[count] = try Self.parse(text) } else { figures.plain[count] = try Self.parse(text) }
      }
    }
    return figures
  }

  /// `ref_load connections=N seconds=S rt_per_s=R p50=Xus p99=Yus acks=A updates=U`
  static func parse(_ text: String) throws -> LoadFigures {
    func value(_ key: String) -> Double? {
      guard let range = text.range(of: " \(key)=") else { return nil }
      return Double(text[range.upperBound...].prefix { $0.isNumber || $0 == "." })
    }
    guard let rate = value("rt_per_s"), let p50 = value("p50"), let p99 = value("p99") else {
      throw DriveError("cannot read ref_load's output: \(text)")
    }
    return LoadFigures(perSecond: rate, p50: p50, p99: p99)
  }
}
