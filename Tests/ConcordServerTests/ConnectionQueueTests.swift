import ConcordWire
import Testing

@testable import ConcordServer

/// What a window is sent, in order, however it attaches, detaches and falls behind.
@Suite struct ConnectionQueueTests {
  static func published(_ count: Double, seq: Int64, after previous: Int64?) -> PublishedState {
    PublishedState(scope: "counter", seq: seq, state: .number(count), bytes: 1, previousSeq: previous)
  }

  @Test func detachingAfterAChangeWasSentLosesNoLaterMessage() throws {
    let outbox = ConnectionQueue()
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
    let outbox = ConnectionQueue()
    outbox.attach("counter", first: Self.published(1, seq: 1, after: nil).snapshotLine(), state: Self.published(1, seq: 1, after: nil))
    _ = outbox.nextLine()
    for seq in Int64(2)...5 { outbox.scopeChanged(Self.published(Double(seq), seq: seq, after: seq - 1)) }
    let update = try #require(outbox.nextLine())
    #expect(update.contains(#""seq":5"#) && update.contains(#""reset":5"#))
    #expect(outbox.nextLine() == nil)
  }
}

/// A scope attached again, or twice, while its lines are still queued: the window ends with
/// every change, diffed from the state it was last written.
@Suite struct ConnectionQueueReattachTests {
  static func published(_ state: JSONValue, seq: Int64, after previous: Int64?) -> PublishedState {
    PublishedState(scope: "notes", seq: seq, state: state, bytes: 10_000, previousSeq: previous)
  }

  static let first: JSONValue = ["a": 1, "b": 1]
  static let second: JSONValue = ["a": 2, "b": 1]
  static let third: JSONValue = ["a": 2, "b": 3]

  static func lines(of outbox: ConnectionQueue) -> [String] {
    var lines: [String] = []
    while let line = outbox.nextLine() { lines.append(line) }
    return lines
  }

  @Test func aChangeAfterAttachingAgainIsNotLostToAnOlderMark() throws {
    let outbox = ConnectionQueue()
    let one = Self.published(Self.first, seq: 1, after: nil)
    outbox.attach("notes", first: one.snapshotLine(), state: one)
    _ = outbox.nextLine()
    outbox.scopeChanged(Self.published(Self.second, seq: 2, after: 1))
    outbox.detach("notes")
    let two = Self.published(Self.second, seq: 2, after: 1)
    outbox.attach("notes", first: two.snapshotLine(), state: two)
    outbox.scopeChanged(Self.published(Self.third, seq: 3, after: 2))
    let lines = Self.lines(of: outbox)
    #expect(lines.count == 2, "\(lines)")
    #expect(lines.first?.contains(#""type":"snapshot""#) == true)
    #expect(lines.last?.contains(#""seq":3"#) == true && lines.last?.contains(#""type":"update""#) == true)
  }

  @Test func attachingTwiceLeavesTheWindowAtTheNewerSnapshot() throws {
    let outbox = ConnectionQueue()
    let one = Self.published(Self.first, seq: 1, after: nil)
    let two = Self.published(Self.second, seq: 2, after: 1)
    outbox.attach("notes", first: one.snapshotLine(), state: one)
    outbox.attach("notes", first: two.snapshotLine(), state: two)
    outbox.scopeChanged(Self.published(Self.third, seq: 3, after: 2))
    let lines = Self.lines(of: outbox)
    #expect(lines.count == 3, "\(lines)")
    // The update goes from the newer snapshot (a is 2 already): only b changes.
    let update = try #require(lines.last)
    #expect(update.contains(#""path":["b"]"#), "\(update)")
    #expect(!update.contains(#""path":["a"]"#), "\(update)")
  }
}
