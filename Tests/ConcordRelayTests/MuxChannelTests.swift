import Testing

@testable import ConcordRelay

/// One channel of the multiplexer, told what the other end says and how writes to its
/// descriptor went: its read side, its write side and its flow, without a descriptor.
@Suite struct MuxChannelTests {
  typealias Channel = Multiplexer.Channel

  @Test func thePeersPauseHoldsTheReadSideUntilItResumesAndAnEndIsFinal() {
    var channel = Channel(fd: -1)
    channel.peerPaused(true)
    #expect(channel.read == .pausedByPeer)
    channel.peerPaused(true)
    #expect(channel.read == .pausedByPeer)
    channel.peerPaused(false)
    #expect(channel.read == .reading)
    channel.peerClosed()
    #expect(channel.read == .ended)
    channel.peerPaused(false)
    #expect(channel.read == .ended, "a resume after the end reads nothing")
  }

  @Test func aBacklogPastTheLimitPausesThePeerOnceAndADrainedOneResumesIt() {
    var channel = Channel(fd: -1)
    let limit = Multiplexer.pauseBytes
    // At the limit, past it, further past, not all written, all written, and again.
    let said = [limit, limit + 1, 2 * limit, 1, 0, 0].map { channel.flow(waiting: $0) }
    #expect(said == [nil, .pause, nil, nil, .resume, nil])
  }

  @Test func thePeersEndShutsTheWriteSideOnceAllItSentIsWritten() {
    var channel = Channel(fd: -1)
    let before = channel.shutsWriting(waiting: 0)
    #expect(!before, "nothing said: the descriptor stays open")
    channel.peerEnded()
    #expect(channel.write == .ending)
    #expect(channel.doneWriting)
    // Bytes left, then all written, then again.
    let shuts = [10, 0, 0].map { channel.shutsWriting(waiting: $0) }
    #expect(shuts == [false, true, false])
    #expect(channel.write == .shut)
    #expect(!channel.isFinished(waiting: 0), "its read side is still open")
    channel.read = .ended
    #expect(channel.isFinished(waiting: 0))
    #expect(!channel.tellsPeerToStop)
  }

  @Test func aBrokenDescriptorIsDoneWritingAndThePeerIsToldToStopUnlessItHadEnded() {
    var broken = Channel(fd: -1)
    broken.broke()
    #expect(broken.write == .broken(peerEnded: false))
    #expect(broken.doneWriting)
    let shuts = broken.shutsWriting(waiting: 0)
    #expect(!shuts, "a broken descriptor is not shut: nothing more is written to it")
    broken.read = .ended
    #expect(broken.isFinished(waiting: 0))
    #expect(broken.tellsPeerToStop)

    var ended = Channel(fd: -1)
    ended.peerEnded()
    ended.broke()
    #expect(ended.write == .broken(peerEnded: true))
    #expect(!ended.tellsPeerToStop)

    var late = Channel(fd: -1)
    late.broke()
    late.peerEnded()
    #expect(late.write == .broken(peerEnded: true), "an end after the break: the peer stops by itself")
  }
}
