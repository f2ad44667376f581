import DaemonDriving
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One sender and `windows` windows on the counter: each round sends one increment and
/// measures the time from the send until every window has its update.
func fanOut(path: String, windows count: Int, rounds: Int, run: String) throws -> (toAll: LatencySample, ack: LatencySample) {
  let sender = try LineSocket.window(path: path, scope: "counter")
  let windows = try (0..<count).map { _ in try LineSocket.window(path: path, scope: "counter") }
  ([sender] + windows).forEach { $0.setNonBlocking() }
  var pollers = ([sender] + windows).map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
  var toAll: [UInt64] = []
  var acks: [UInt64] = []
  let started = monotonicNanoseconds()
  for round in 1...rounds {
    let sentAt = monotonicNanoseconds()
    try sender.sendIncrement(client: "fan-\(run)", cseq: Int64(round))
    var waiting = Set(1...count)
    var acked = false
    while !waiting.isEmpty || !acked {
      guard poll(&pollers, nfds_t(pollers.count), 5000) > 0 else {
        throw DriveError("round \(round): \(waiting.count) windows without their update after 5 s")
      }
      let now = monotonicNanoseconds()
      for index in pollers.indices where pollers[index].revents != 0 {
        let socket = index == 0 ? sender : windows[index - 1]
        guard try socket.fill() else { throw DriveError("the daemon closed a window") }
        while let line = socket.nextLine() {
          switch LineKind(line) {
          case .ack: acks.append(now - sentAt); acked = true
          case .update where index > 0:
            if waiting.remove(index) != nil, waiting.isEmpty { toAll.append(now - sentAt) }
          case .update: continue
          case .ping: try socket.write(LineSocket.pong)
          default: throw DriveError("unexpected: \(String(decoding: line, as: UTF8.self))")
          }
        }
      }
    }
  }
  let seconds = Double(monotonicNanoseconds() - started) / 1e9
  return (LatencySample(latencies: toAll, seconds: seconds), LatencySample(latencies: acks, seconds: seconds))
}
