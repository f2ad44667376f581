import ConcordJSON
import PropertyRandom
import Testing

/// Every text a peer or the log hands over is read by `String(validatingUTF8Bytes:)`. Checked
/// against a validator written here from RFC 3629's table of well-formed sequences: bytes that
/// are UTF-8 read back as the same bytes, and every other sequence — overlong forms,
/// surrogates, scalars past U+10FFFF, a sequence cut short, a stray continuation byte — is
/// refused, wherever it sits among ASCII.
@Suite struct ValidUTF8Properties {
  static let pieces: [[UInt8]] = [
    [0x61], [0x00], [0x7F], [0x22], [0xC3, 0xA9], [0xE6, 0xBC, 0xA2], [0xF0, 0x9F, 0x91, 0xA9],
    [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xED, 0x9F, 0xBF],
    [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0x80], [0xC3],
    [0xE6, 0xBC], [0xF0, 0x9F, 0x91],
  ]

  @Test func aTextIsReadExactlyWhenItIsUTF8AndRefusedOtherwise() {
    var refused = 0
    for seed in PropertyRandom.seeds(from: 0x0078_0000, count: 2_000) {
      var random = PropertyRandom(seed: seed)
      var bytes: [UInt8] = []
      for _ in 0..<random.int(0...10) {
        bytes += random.chance(20) ? [UInt8(random.int(0...255))] : random.pick(Self.pieces)
      }
      let read = bytes.withUnsafeBufferPointer { String(validatingUTF8Bytes: $0) }
      let valid = Self.isWellFormed(bytes)
      #expect((read != nil) == valid, "seed \(seed): \(bytes)")
      if let read { #expect(Array(read.utf8) == bytes, "seed \(seed)") } else { refused += 1 }
    }
    if PropertyRandom.replayed == nil { #expect(refused > 300) }
  }

  @Test func aMegabyteOfASCIIAndOfCJKReadsWhole() {
    for piece in [[UInt8(0x61)], [0xE6, 0xBC, 0xA2]] {
      let bytes = Array([[UInt8]](repeating: piece, count: (1 << 20) / piece.count).joined())
      let read = bytes.withUnsafeBufferPointer { String(validatingUTF8Bytes: $0) }
      #expect(read.map { Array($0.utf8) } == bytes)
    }
  }

  /// RFC 3629, section 4: the well-formed byte sequences, as ranges per position.
  static func isWellFormed(_ bytes: [UInt8]) -> Bool {
    let tails: [(ClosedRange<UInt8>, [ClosedRange<UInt8>])] = [
      (0x00...0x7F, []),
      (0xC2...0xDF, [0x80...0xBF]),
      (0xE0...0xE0, [0xA0...0xBF, 0x80...0xBF]),
      (0xE1...0xEC, [0x80...0xBF, 0x80...0xBF]),
      (0xED...0xED, [0x80...0x9F, 0x80...0xBF]),
      (0xEE...0xEF, [0x80...0xBF, 0x80...0xBF]),
      (0xF0...0xF0, [0x90...0xBF, 0x80...0xBF, 0x80...0xBF]),
      (0xF1...0xF3, [0x80...0xBF, 0x80...0xBF, 0x80...0xBF]),
      (0xF4...0xF4, [0x80...0x8F, 0x80...0xBF, 0x80...0xBF]),
    ]
    var index = 0
    while index < bytes.count {
      guard let (_, rest) = tails.first(where: { $0.0.contains(bytes[index]) }) else { return false }
      for (offset, range) in rest.enumerated() {
        let at = index + 1 + offset
        guard at < bytes.count, range.contains(bytes[at]) else { return false }
      }
      index += 1 + rest.count
    }
    return true
  }
}
