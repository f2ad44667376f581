import Foundation
import PropertyRandom
import Testing

@testable import ConcordLog

/// An entry's sealed payload is read back exactly as written, and anything else — cut short
/// anywhere, a length that points past the end, bytes that are not UTF-8, a byte flipped — reads
/// as nothing, just as a reader written here from the layout reads it:
/// `version ‖ salt ‖ user ‖ scope ‖ action ‖ outcome byte ‖ reason ‖ app ‖ app version`, each
/// text a 4-byte big-endian length and its UTF-8 bytes, the app version 8 bytes big-endian.
@Suite struct EntryCodecProperties {
  /// What a payload holds, its texts as bytes (Swift's `==` would take NFD for NFC).
  struct Fields: Equatable {
    var salt: [UInt8]
    var texts: [[UInt8]]
    var outcome: UInt8
    var appVersion: Int64
  }

  /// The reader from the layout, with Foundation's UTF-8 check.
  static func model(_ bytes: [UInt8]) -> Fields? {
    var offset = 0
    func take(_ count: Int) -> [UInt8]? {
      guard count >= 0, count <= bytes.count - offset else { return nil }
      defer { offset += count }
      return Array(bytes[offset..<offset + count])
    }
    func number(_ width: Int) -> UInt64? { take(width)?.reduce(0) { $0 << 8 | UInt64($1) } }
    func text() -> [UInt8]? {
      guard let length = number(4), let utf8 = take(Int(length)), String(bytes: utf8, encoding: .utf8) != nil else { return nil }
      return utf8
    }
    guard take(1) == [EntryCodec.payloadVersion], let salt = take(EntryCodec.saltBytes), let user = text(), let scope = text(),
      let action = text(), let outcome = take(1)?.first, outcome <= 1, let reason = text(), let app = text(),
      let version = number(8), offset == bytes.count
    else { return nil }
    // An applied entry's reason is not kept.
    return Fields(salt: salt, texts: [user, scope, action, outcome == 1 ? reason : [], app], outcome: outcome, appVersion: Int64(bitPattern: version))
  }

  static func fields(_ payload: EntryCodec.Payload) -> Fields {
    let (outcome, reason): (UInt8, String) =
      switch payload.outcome {
      case .applied: (0, "")
      case let .refused(reason): (1, reason)
      }
    return Fields(
      salt: payload.salt, texts: [payload.user, payload.scope, payload.action, reason, payload.app].map { Array($0.utf8) },
      outcome: outcome, appVersion: Int64(payload.appVersion))
  }

  static let pieces = ["", "a", "\0", "\u{E9}", "e\u{301}", "👩‍👩‍👧", "漢字", #"{"add":{"amount":1}}"#, String(repeating: "x", count: 300)]

  @Test func aPayloadReadsBackAsWrittenAndAnythingElseAsNothingAsTheLayoutSays() {
    var (cut, spoiled) = (0, 0)
    for seed in PropertyRandom.seeds(from: 0xE27C_0000, count: 60) {
      var random = PropertyRandom(seed: seed)
      let text = { (random: inout PropertyRandom) in (0..<random.int(0...3)).map { _ in random.pick(Self.pieces) }.joined() }
      let payload = EntryCodec.Payload(
        salt: (0..<EntryCodec.saltBytes).map { _ in UInt8(random.int(0...255)) }, user: text(&random), scope: text(&random),
        action: text(&random), outcome: random.chance(50) ? .applied : .refused(reason: text(&random)), app: text(&random),
        appVersion: random.pick([0, 1, 2, Int.max, Int.min, 1 << 53 + 1]))
      let bytes = EntryCodec.encode(payload)
      #expect(EntryCodec.decode(bytes).map(Self.fields) == Self.fields(payload), "seed \(seed)")
      #expect(Self.model(bytes) == Self.fields(payload), "seed \(seed): the model reads what was written")
      // Cut short anywhere.
      for length in 0..<bytes.count {
        let short = Array(bytes[..<length])
        #expect(EntryCodec.decode(short).map(Self.fields) == Self.model(short), "seed \(seed) cut at \(length)")
        cut += 1
      }
      // A byte changed: a length, a text's byte (not UTF-8 any more), the outcome.
      for _ in 0..<30 {
        var changed = bytes
        changed[random.int(0...changed.count - 1)] = UInt8(random.pick([0, 1, 0x7F, 0x80, 0xC0, 0xFF, random.int(0...255)]))
        #expect(EntryCodec.decode(changed).map(Self.fields) == Self.model(changed), "seed \(seed)")
        spoiled += 1
      }
    }
    #expect(cut > 10_000 && spoiled == 1_800)
  }
}
