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

/// The C reference daemon of bench-ref (epoll, XChaCha20-Poly1305, SQLite group commit with
/// synchronous=FULL) under its closed-loop load generator: the physical limit of the durable path.
struct ReferenceDaemonAnchor {
  let ref: URL

  /// `CONCORD_BENCH_REF`, else `../shared/bench-ref` beside the package.
  init?() {
    let configured = ProcessInfo.processInfo.environment["CONCORD_BENCH_REF"]
    let url = URL(filePath: configured ?? FileManager.default.currentDirectoryPath + "/../shared/bench-ref").standardized
    guard FileManager.default.fileExists(atPath: url.appending(path: "src/ref_daemon.c").path) else { return nil }
    ref = url
  }

  func measure(clients: [Int], seconds: Double, in directory: URL) throws -> [Int: LoadFigures] {
    // Built in a copy: the reference folder may be read-only.
    let build = directory.appending(path: "bench-ref")
    try FileManager.default.copyItem(at: ref, to: build)
    _ = try runToEnd("/usr/bin/make", ["-s", "bin/ref_daemon", "bin/pp_epoll"], in: build)
    let socket = directory.appending(path: "ref.sock").path
    let daemon = try ChildProcess(build.appending(path: "bin/ref_daemon").path, [
      socket, directory.appending(path: "ref.sqlite").path, "FULL",
    ], outputIn: directory)
    defer { daemon.stop() }
    try daemon.wait(timeout: 10, for: "ref_daemon") { FileManager.default.fileExists(atPath: socket) }
    var figures: [Int: LoadFigures] = [:]
    for count in clients {
      // Payload 200 bytes (about an action), reply 8 bytes (the seq).
      let text = try runToEnd(build.appending(path: "bin/pp_epoll").path, [socket, "\(count)", "\(seconds)", "200", "8"])
      figures[count] = try Self.parse(text)
    }
    return figures
  }

  /// `pp_epoll ... rt_per_s=N p50=Xus p99=Yus ...`
  static func parse(_ text: String) throws -> LoadFigures {
    func value(_ key: String) -> Double? {
      guard let range = text.range(of: " \(key)=") else { return nil }
      return Double(text[range.upperBound...].prefix { $0.isNumber || $0 == "." })
    }
    guard let rate = value("rt_per_s"), let p50 = value("p50"), let p99 = value("p99") else {
      throw DriveError("cannot read pp_epoll's output: \(text)")
    }
    return LoadFigures(perSecond: rate, p50: p50, p99: p99)
  }
}
