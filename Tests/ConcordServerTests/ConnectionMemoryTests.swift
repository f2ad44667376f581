import ConcordWire
import DaemonDriving
import Foundation
import Testing

/// A daemon runs for months while windows come and go: a window that closed must leave nothing
/// of itself in the daemon's memory.
@Suite struct ConnectionMemoryTests {
  @Test func windowsThatCameAndWentLeaveNothingBehind() throws {
    let daemon = try DaemonProcess().start()
    defer { daemon.removeHome() }
    // Each window has a thousand messages queued at once (pings answered in one turn of the
    // loop), so a window kept after it closed would keep a queue of that size with it.
    let pings = Array(String(repeating: #"{"type":"ping"}"# + "\n", count: 1_100).utf8)
    func windowsComeAndGo() throws {
      for _ in 0..<100 {
        let peer = try RawPeer(path: daemon.socketPath)
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
}
