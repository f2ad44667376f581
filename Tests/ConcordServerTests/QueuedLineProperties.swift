import NIOCore
import PropertyRandom
import Testing

@testable import ConcordServer

/// A connection writes what its queue hands it as one buffer: a window must receive exactly its
/// lines, in order, whichever of them are shared with other windows — and a line shared by every
/// window of a scope must reach each of them unchanged, however many lines one window's buffer
/// appends after it. The model is the concatenation of the lines' texts.
@Suite struct QueuedLineProperties {
  static let texts = [
    #"{"type":"update","scope":"board","seq":9,"diff":[]}"# + "\n", #"{"type":"ack","client":"w","cseq":1,"seq":9}"# + "\n",
    "\n", "é漢👩‍👩‍👧\u{0}\n", String(repeating: "x", count: 70_000) + "\n",
  ]

  @Test func eachWindowGetsItsLinesAndSharedLinesStayAsTheyWere() {
    for seed in PropertyRandom.seeds(from: 0x0B1F_0000, count: 200) {
      var random = PropertyRandom(seed: seed)
      // The lines of one update, shared by the windows of a scope.
      let shared = (0..<3).map { _ in ByteBuffer(string: random.pick(Self.texts)) }
      let sharedTexts = shared.map { String(buffer: $0) }
      for _ in 0..<4 {
        let lines: [QueuedLine] = (0..<random.int(0...4)).map { _ in
          random.chance(50) ? .shared(random.pick(shared)) : .own(random.pick(Self.texts))
        }
        var buffer: ByteBuffer?
        for line in lines { line.append(to: &buffer, allocator: ByteBufferAllocator()) }
        let expected = lines.map(\.text).joined()
        #expect((buffer.map { String(buffer: $0) } ?? "") == expected, "seed \(seed)")
      }
      #expect(shared.map { String(buffer: $0) } == sharedTexts, "seed \(seed): a shared line was changed")
    }
  }
}
