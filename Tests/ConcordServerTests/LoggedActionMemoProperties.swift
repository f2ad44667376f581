import ConcordApp
import ConcordWire
import PropertyRandom
import SampleApp
import Testing

/// A boot decodes each text once (`TextSlots` on the reading thread, `LoggedActionMemo` on the
/// decoding one); replaying with the memo must give exactly what replaying every entry on its
/// own gives — the same state after each entry and the same error at the same entry — for logs
/// that repeat texts, spell one action two ways, change version, spell one text in NFC and in
/// NFD, and hold texts that do not parse, belong to another app or refuse. The model is `replay`
/// without a memo.
@Suite struct LoggedActionMemoProperties {
  static let texts: [(String, Int)] = [
    (#"{"counter":{"increment":{}}}"#, 2), (#"{"counter":{"decrement":{}}}"#, 2), (#"{"counter":{"add":{"amount":5}}}"#, 2),
    (#"{"counter":{"add":{"amount":-3}}}"#, 2), (#"{ "counter" : {"increment":{}} }"#, 2),
    (#"{"counter":{"add":{"_0":7}}}"#, 1), (#"{"counter":{"add":{"amount":7}}}"#, 1), (#"{"counter":{"increment":{}}}"#, 3),
    (#"{"notes":{"add":{"text":"é\u0000漢"}}}"#, 2), (#"{"counter":{"add":{"amount":9.5}}}"#, 2), (#"{"counter":"#, 2),
    (#"{"booted":{}}"#, 2),
    // One text in two spellings, as a log from before texts were put in NFC may hold.
    ("{\"notes\":{\"add\":{\"text\":\"caf\u{E9}\"}}}", 2), ("{\"notes\":{\"add\":{\"text\":\"cafe\u{301}\"}}}", 2),
  ]

  /// A state by the bytes of its JSON: Swift's `==` takes one spelling of a text for the other.
  static func spelling(of state: SampleApp.State) throws -> [UInt8] { Array(try JSONValue(encoding: state).jsonText.utf8) }

  @Test func replayingWithTheMemoGivesWhatReplayingEachEntryAloneGives() throws {
    let app = SampleApp.hosted
    var (entries, failures) = (0, 0)
    for seed in PropertyRandom.seeds(from: 0x3E30_0000, count: 30) {
      var random = PropertyRandom(seed: seed)
      // Slots filed as a boot's reading thread files them, afresh every 2 texts or every 4,096.
      let slots = TextSlots(capacity: random.pick([2, 4_096]))
      let memo = LoggedActionMemo<SampleApp.Action>()
      var (alone, withMemo) = (app.initialState, app.initialState)
      for seq in 1...Int64(random.int(20...80)) {
        let (text, version) = random.pick(Self.texts)
        let entry = LoggedAction(
          seq: seq, app: random.chance(3) ? "workspace" : app.name, appVersion: version, action: text, applied: !random.chance(10))
        let expected = Result { try app.replay(entry, into: &alone) }
        // Filed in a slot as a boot files it, or (now and then) parsed ahead or not and unfiled.
        let parsed = random.chance(20) ? ParsedLoggedAction(entry, parse: random.chance(50)) : ParsedLoggedAction(entry, slot: slots.slot(for: entry))
        let actual = Result { try app.replay(parsed, into: &withMemo, memo: memo) }
        switch (expected, actual) {
        case (.success, .success): entries += 1
        case let (.failure(a), .failure(b)):
          #expect("\(a)" == "\(b)", "seed \(seed) entry \(seq)")
          failures += 1
        default: Issue.record("seed \(seed) entry \(seq) \(text): alone \(expected), with the memo \(actual)")
        }
        #expect(try Self.spelling(of: alone) == Self.spelling(of: withMemo), "seed \(seed) entry \(seq)")
      }
    }
    #expect(entries > 500 && failures > 100, "\(entries) replayed, \(failures) refused alike")
  }

  /// Filing rests where texts do not repeat, and only there: after a round of `capacity` filings
  /// that found fewer than one in 16 texts filed, the next `7 × capacity` entries get no slot,
  /// then filing starts again; a log that repeats its texts is always filed.
  @Test func filingRestsWhereTextsDoNotRepeat() {
    let app = SampleApp.hosted
    func entry(_ text: String) -> LoggedAction { LoggedAction(seq: 1, app: app.name, appVersion: 2, action: text, applied: true) }
    let distinct = TextSlots(capacity: 4)
    let slots = (0..<40).map { distinct.slot(for: entry(#"{"counter":{"add":{"amount":\#($0)}}}"#)) }
    #expect(slots[0..<4].allSatisfy { $0?.isNew == true })
    #expect(slots[4..<32].allSatisfy { $0 == nil }, "\(slots)")
    #expect(slots[32..<36].allSatisfy { $0?.isNew == true })
    let repeated = TextSlots(capacity: 4)
    let filed = (0..<40).map { _ in repeated.slot(for: entry(#"{"counter":{"increment":{}}}"#)) }
    #expect(filed.allSatisfy { $0 != nil } && filed.dropFirst().allSatisfy { $0?.isNew == false })
  }
}
