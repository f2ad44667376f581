import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `clients` windows on the counter, each with one `send` in flight at a time, on one thread
/// with poll(2): the closed loop of `redis-benchmark -c N`. Counts acknowledged (durable)
/// actions over `seconds`, after a warm-up.
public func closedLoop(path: String, clients: Int, seconds: Double, warmup: Double = 0.5, run: String) throws -> LatencySample {
  try closedLoop(clients: clients, seconds: seconds, warmup: warmup, run: run) { try LineSocket(path: path) }
}

/// The closed loop over connections `connect` opens (through ssh, say), one per window;
/// `measuring` is told when the measured interval starts (true) and ends (false), while every
/// connection is still open (to read what other processes spent in it); each window greets the
/// daemon with `greeting`.
public func closedLoop(
  clients: Int, seconds: Double, warmup: Double = 0.5, run: String, measuring: (Bool) -> Void = { _ in },
  greeting: String = LineSocket.hello, connect: () throws -> LineSocket
) throws -> LatencySample {
  let sockets = try (0..<clients).map { _ in try LineSocket.window(connect(), scope: "counter", greeting: greeting) }
  let names = (0..<clients).map { "bench-\(run)-\($0)" }
  var cseq = [Int64](repeating: 0, count: clients)
  var sentAt = [UInt64](repeating: 0, count: clients)
  func send(_ index: Int) throws {
    cseq[index] += 1
    sentAt[index] = monotonicNanoseconds()
    try sockets[index].sendIncrement(client: names[index], cseq: cseq[index])
  }
  sockets.forEach { $0.setNonBlocking() }
  for index in 0..<clients { try send(index) }

  var pollers = sockets.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
  var latencies: [UInt64] = []
  latencies.reserveCapacity(2_000_000)
  let measureFrom = monotonicNanoseconds() + UInt64(warmup * 1e9)
  let measureUntil = measureFrom + UInt64(seconds * 1e9)
  var started = false
  while true {
    let ready = poll(&pollers, nfds_t(pollers.count), 1000)
    let now = monotonicNanoseconds()
    if now >= measureFrom && !started {
      started = true
      measuring(true)
    }
    if now >= measureUntil {
      // Swift may release what is no longer used before the scope ends: the connections must
      // outlive the reading.
      withExtendedLifetime(sockets) { measuring(false) }
      break
    }
    guard ready > 0 else { continue }
    for index in pollers.indices where pollers[index].revents != 0 {
      guard try sockets[index].fill() else { throw DriveError("the daemon closed window \(index)") }
      while let line = sockets[index].nextLine() {
        switch LineKind(line) {
        case .ack, .refused:
          if now >= measureFrom { latencies.append(now - sentAt[index]) }
          try send(index)
        case .update: continue
        case .ping: try sockets[index].write(LineSocket.pong)
        case .other: throw DriveError("unexpected: \(String(decoding: line, as: UTF8.self))")
        }
      }
    }
  }
  return LatencySample(latencies: latencies, seconds: seconds)
}
