import ConcordWire
import PropertyRandom
import Testing

/// The wire's line framing against the protocol's words (`LineFramingModel`): streams of lines
/// around the limit, with and without `\r`, fed in random chunks as a socket delivers them.
@Suite struct LineFramingProperties {
  /// What a reader that asks `LineFraming` passes on, fed `bytes` in chunks of `chunk`.
  static func framed(_ bytes: [UInt8], limit: Int, chunk: Int) -> LineFramingModel.Outcome {
    var framing = LineFraming(maximumBytes: limit)
    var buffer = ReadBuffer()
    var outcome = LineFramingModel.Outcome()
    var offset = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + chunk)
      buffer.append(bytes[offset..<end])
      offset = end
      do {
        while let line = try framing.nextLine(in: buffer.unread) {
          outcome.lines.append(Array(buffer.unread[line.content]))
          buffer.take(upTo: line.end)
        }
      } catch {
        outcome.tooLong = true
        return outcome
      }
    }
    return outcome
  }

  @Test func theFramingPassesOnWhatTheProtocolSaysALineIs() {
    var cases = 0
    var tooLong = 0
    for seed in PropertyRandom.seeds(from: 0xF4A3_0000, count: 2_000) {
      var random = PropertyRandom(seed: seed)
      let limit = random.int(1...16)
      let bytes = random.linesAround(limit: limit) { random, length in
        (0..<length).map { _ in random.pick(Array("ab{}\r".utf8)) }
      }
      let expected = LineFramingModel.read(bytes, limit: limit)
      #expect(Self.framed(bytes, limit: limit, chunk: random.int(1...8)) == expected, "seed \(seed)")
      cases += 1
      if expected.tooLong { tooLong += 1 }
    }
    // Both ways out were reached.
    if PropertyRandom.replayed == nil { #expect(tooLong > 200 && cases - tooLong > 200, "\(tooLong) of \(cases)") }
  }
}
