/// What the wire protocol says a stream of lines is, restated from its words for property tests
/// of every reader of the wire: lines end at `\n`; a `\r` before it is dropped and, like the
/// newline, not counted; a line longer than the limit stops the stream; an unfinished line that
/// can no longer fit (more than the limit and a `\r`) stops it at once; a half line at the end
/// is discarded.
public enum LineFramingModel {
  public struct Outcome: Equatable, Sendable {
    public var lines: [[UInt8]] = []
    public var tooLong = false
    public init(lines: [[UInt8]] = [], tooLong: Bool = false) {
      self.lines = lines
      self.tooLong = tooLong
    }
  }

  /// The lines of `bytes` and whether the stream stops for a line too long.
  public static func read(_ bytes: [UInt8], limit: Int) -> Outcome {
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
}

extension PropertyRandom {
  /// Up to five lines of lengths around `limit` (two below to two above), made of `filler`'s
  /// bytes, each ending in `\r\n`, `\n`, `\r` or nothing — the shapes a framing can get wrong.
  public mutating func linesAround(limit: Int, filler: (inout PropertyRandom, _ length: Int) -> [UInt8]) -> [UInt8] {
    var bytes: [UInt8] = []
    for _ in 0..<int(0...5) {
      bytes += filler(&self, int(max(0, limit - 2)...limit + 2))
      if chance(50) { bytes.append(UInt8(ascii: "\r")) }
      if chance(90) { bytes.append(UInt8(ascii: "\n")) }
    }
    return bytes
  }
}
