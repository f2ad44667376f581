import ConcordWire
import NIOCore
import NIOEmbedded
import PropertyRandom
import Testing

/// The line framing against the protocol's words, restated here as a model: lines end at `\n`; a
/// `\r` before it is dropped and, like the newline, not counted; a line longer than the limit
/// stops the stream; an unfinished line that can no longer fit (more than the limit and a `\r`)
/// stops it at once; a half line at the end is discarded. Streams of lines around the limit,
/// with and without `\r`, fed in random chunks as a socket delivers them.
@Suite struct LineFramingProperties {
  struct Outcome: Equatable {
    var lines: [[UInt8]] = []
    var tooLong = false
  }

  /// What the protocol says a peer's stream is.
  static func model(_ bytes: [UInt8], limit: Int) -> Outcome {
    var outcome = Outcome()
    var start = 0
    for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
      var line = Array(bytes[start..<index])
      start = index + 1
      if line.last == UInt8(ascii: "\r") { line.removeLast() }
      if line.count > limit {
        outcome.tooLong = true
        return outcome
      }
      outcome.lines.append(line)
    }
    let tail = bytes[start...]
    outcome.tooLong = tail.count > limit + 1 || (tail.count == limit + 1 && tail.last != UInt8(ascii: "\r"))
    return outcome
  }

  /// What the decoder passes on, fed `bytes` in chunks of `chunk`.
  static func decoded(_ bytes: [UInt8], limit: Int, chunk: Int) -> Outcome {
    let channel = EmbeddedChannel(handler: ByteToMessageHandler(LineFrameDecoder(maximumBytes: limit)))
    var outcome = Outcome()
    func drain() {
      while let line = try? channel.readInbound(as: ByteBuffer.self) { outcome.lines.append(Array(line.readableBytesView)) }
    }
    var offset = 0
    while offset < bytes.count, !outcome.tooLong {
      let end = min(bytes.count, offset + chunk)
      do {
        try channel.writeInbound(channel.allocator.buffer(bytes: bytes[offset..<end]))
      } catch {
        outcome.tooLong = true
      }
      offset = end
      drain()
    }
    if !outcome.tooLong {
      do { _ = try channel.finish() } catch { outcome.tooLong = true }
    } else {
      _ = try? channel.finish()
    }
    drain()
    return outcome
  }

  @Test func theDecoderPassesOnWhatTheProtocolSaysALineIs() {
    var cases = 0
    var tooLong = 0
    for seed in PropertyRandom.seeds(from: 0xF4A3_0000, count: 2_000) {
      var random = PropertyRandom(seed: seed)
      let limit = random.int(1...16)
      var bytes: [UInt8] = []
      for _ in 0..<random.int(0...5) {
        let length = random.int(max(0, limit - 2)...limit + 2)
        bytes += (0..<length).map { _ in random.pick(Array("ab{}\r".utf8)) }
        if random.chance(50) { bytes.append(UInt8(ascii: "\r")) }
        if random.chance(90) { bytes.append(UInt8(ascii: "\n")) }
      }
      let expected = Self.model(bytes, limit: limit)
      #expect(Self.decoded(bytes, limit: limit, chunk: random.int(1...8)) == expected, "seed \(seed)")
      cases += 1
      if expected.tooLong { tooLong += 1 }
    }
    // Both ways out were reached.
    if PropertyRandom.replayed == nil { #expect(tooLong > 200 && cases - tooLong > 200, "\(tooLong) of \(cases)") }
  }
}
