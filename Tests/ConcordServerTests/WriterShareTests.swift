import ConcordPlatform
import Testing

@testable import ConcordServer

/// How many actions a connection may have unanswered: the whole allowance while it writes alone,
/// a share while another connection wrote in the last 100 ms — told as a story of who sent what
/// when, without sockets.
@Suite struct WriterShareTests {
  static func connection(_ id: String) -> Connection { Connection(id: id, peer: PeerCredentials(pid: 1, uid: 0, gid: 0), close: {}) }
  static let ms: UInt64 = 1_000_000

  @Test func aScriptWritingAloneMayHaveManyInFlight() {
    let writers = WriterShare()
    let script = Self.connection("script")
    #expect(writers.limit(for: script, now: 0) == WriterShare.alone)
    for at in 0..<1_000 { writers.sent(from: script, now: UInt64(at) * Self.ms) }
    #expect(writers.limit(for: script, now: 1_000 * Self.ms) == WriterShare.alone)
  }

  @Test func whileAnotherWritesEachHasAShareAndTheShareEndsWhenTheOtherStops() {
    let writers = WriterShare()
    let (flood, window) = (Self.connection("flood"), Self.connection("window"))
    writers.sent(from: flood, now: 0)
    writers.sent(from: window, now: 1 * Self.ms)
    // The flood sends many more: the window is still the last other writer it has seen.
    for at in 2..<50 { writers.sent(from: flood, now: UInt64(at) * Self.ms) }
    #expect(writers.limit(for: flood, now: 50 * Self.ms) == WriterShare.shared)
    #expect(writers.limit(for: window, now: 50 * Self.ms) == WriterShare.shared)
    // The window went quiet 100 ms ago: the flood writes alone again.
    #expect(writers.limit(for: flood, now: 101 * Self.ms) == WriterShare.alone)
    // A third connection that sends counts as company for both others.
    let third = Self.connection("third")
    writers.sent(from: third, now: 120 * Self.ms)
    #expect(writers.limit(for: flood, now: 121 * Self.ms) == WriterShare.shared)
    #expect(writers.limit(for: window, now: 121 * Self.ms) == WriterShare.shared)
    #expect(writers.limit(for: third, now: 121 * Self.ms) == WriterShare.shared)
  }
}
