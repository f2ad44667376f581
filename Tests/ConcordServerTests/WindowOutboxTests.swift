import ConcordWire
import Testing

@testable import ConcordServer

/// What a window is sent, in order, however it attaches, detaches and falls behind.
@Suite struct WindowOutboxTests {
  static func published(_ count: Double, seq: Int64, after previous: Int64?) -> PublishedState {
    PublishedState(scope: "counter", seq: seq, state: .number(count), bytes: 1, previousSeq: previous)
  }

  @Test func detachingAfterAChangeWasSentLosesNoLaterMessage() throws {
    let outbox = WindowOutbox()
    outbox.attach("counter", first: Self.published(1, seq: 1, after: nil).snapshotLine(), state: Self.published(1, seq: 1, after: nil))
    #expect(outbox.nextLine()?.contains(#""type":"snapshot""#) == true)
    outbox.scopeChanged(Self.published(2, seq: 2, after: 1))
    #expect(outbox.nextLine()?.contains(#""type":"update""#) == true)
    // A change not yet written, then an answer behind it; the window leaves the scope.
    outbox.scopeChanged(Self.published(3, seq: 3, after: 2))
    outbox.enqueue(.ack(client: "w", cseq: 7, seq: 3))
    outbox.detach("counter")
    let next = try #require(outbox.nextLine())
    #expect(next.contains(#""type":"ack""#) && next.contains(#""cseq":7"#))
    #expect(outbox.nextLine() == nil)
  }

  @Test func aWindowBehindGetsOneUpdateWithEverythingItMissed() throws {
    let outbox = WindowOutbox()
    outbox.attach("counter", first: Self.published(1, seq: 1, after: nil).snapshotLine(), state: Self.published(1, seq: 1, after: nil))
    _ = outbox.nextLine()
    for seq in Int64(2)...5 { outbox.scopeChanged(Self.published(Double(seq), seq: seq, after: seq - 1)) }
    let update = try #require(outbox.nextLine())
    #expect(update.contains(#""seq":5"#) && update.contains(#""reset":5"#))
    #expect(outbox.nextLine() == nil)
  }
}
