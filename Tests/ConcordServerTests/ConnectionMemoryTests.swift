import ConcordWire
import DaemonDriving
import Foundation
import Testing

/// A daemon runs for months while windows come and go: a window that closed must leave nothing
/// of itself in the daemon's memory.
@Suite struct ConnectionMemoryTests {
  @Test func windowsThatCameAndWentLeaveNothingBehind() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    // Each window has a thousand messages queued at once (pings answered in one turn of the
    // loop), so a window kept after it closed would keep a queue of that size with it.
    let pings = Array(String(repeating: #"{"type":"ping"}"# + "\n", count: 1_100).utf8)
    func windowsComeAndGo() throws {
      for _ in 0..<100 {
        let peer = try LineSocket(path: daemon.socketPath)
        _ = try peer.hello()
        try peer.write(pings)
        var pongs = 0
        while pongs < 1_100, let message = try peer.receive(timeout: 10) {
          if case .pong = message { pongs += 1 }
        }
        #expect(pongs == 1_100)
        peer.close()
      }
      usleep(200_000)  // the daemon sees the last ones close
    }
    try windowsComeAndGo()  // warms up what the daemon keeps for good (caches, arenas)
    let before = try #require(DaemonUnderTest.residentBytes(of: daemon.process.processIdentifier))
    for _ in 0..<3 { try windowsComeAndGo() }
    let after = try #require(DaemonUnderTest.residentBytes(of: daemon.process.processIdentifier))
    // 300 windows kept alive would hold tens of MiB; a few MiB of slack is the allocator's.
    #expect(after - before < 4 << 20, "the daemon grew by \((after - before) >> 10) KiB for 300 windows that closed")
  }

  /// A window written every update keeps no room in its queue for the updates already written.
  /// Before, a drained queue kept growing until 1,024 items were written, so a thousand windows'
  /// queues all doubled their room at the same update (the 64th, 128th, 256th…): that update
  /// reached the last window 5–9 ms late, the slowest rounds of the fan-out benchmark.
  @Test func aWindowWrittenEveryUpdateKeepsNoRoomForThePast() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    let windows = try (0..<100).map { _ in try LineSocket.window(of: daemon, attachedTo: "counter") }
    defer { windows.forEach { $0.close() } }
    let sender = try LineSocket.window(of: daemon, attachedTo: "counter")
    func increments(_ cseqs: ClosedRange<Int64>) throws {
      for cseq in cseqs {
        try sender.send(.send(scope: "counter", action: ["increment": [:]], client: "sender", cseq: cseq))
        _ = try sender.receive { if case .ack = $0 { true } else { false } }
        // The windows read, as windows do, so the daemon writes every update as it comes and
        // has nothing left in its queues (or in the channels) after each.
        if cseq % 10 == 0 {
          for window in windows { while let taken = window.discard(upTo: 65_536), taken > 0 {} }
        }
      }
    }
    try increments(1...100)  // warms up what the daemon keeps for good
    let before = try #require(DaemonUnderTest.residentBytes(of: daemon.process.processIdentifier))
    try increments(101...1_100)
    let after = try #require(DaemonUnderTest.residentBytes(of: daemon.process.processIdentifier))
    // The log's pages and a snapshot (at entry 1,000) take some; the queues took 11 MiB.
    #expect(after - before < 3 << 20, "the daemon grew by \((after - before) >> 10) KiB over 1,000 updates to 101 windows")
  }
}
