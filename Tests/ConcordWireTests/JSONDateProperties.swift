import ConcordWire
import Foundation
import PropertyRandom
import Testing

/// Every date in Concord's JSON is an ISO-8601 UTC timestamp to the millisecond, and reading
/// takes any RFC 3339 timestamp (README, "Actions and states in JSON"). Held against models that
/// share no code with `JSONDate`: Foundation's `ISO8601DateFormatter` and Gregorian calendar, and
/// a regular expression of RFC 3339's grammar. (Foundation's calendar turns Julian before
/// October 1582, so the models are asked about the years 1583 to 9999; the years before are held
/// by the round trip and the order.)
@Suite struct JSONDateProperties {
  static let utc = TimeZone(identifier: "UTC")!
  static let calendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = utc
    return calendar
  }()
  /// 1583-01-01 and 9999-12-31T23:59:59.999Z in milliseconds since 1970.
  static let modelled: ClosedRange<Int64> = -12_212_553_600_000...253_402_300_799_999
  /// 0000-01-01: 719,528 days before 1970.
  static let first: Int64 = -719_528 * 86_400_000

  /// The timestamp of `milliseconds`, by Foundation: whole seconds formatted by
  /// `ISO8601DateFormatter`, the milliseconds written after them.
  static func modelText(_ milliseconds: Int64) -> String {
    let (seconds, rest) = (milliseconds - (milliseconds % 1000 + 1000) % 1000, (milliseconds % 1000 + 1000) % 1000)
    let whole = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(seconds / 1000)))
    return whole.dropLast() + String(format: ".%03dZ", Int(rest))
  }

  static func randomMilliseconds(_ random: inout PropertyRandom, in range: ClosedRange<Int64>) -> Int64 {
    Int64.random(in: range, using: &random)
  }

  @Test func aDateIsWrittenAsFoundationWritesItAndReadsBackToTheSameMillisecond() throws {
    for seed in PropertyRandom.seeds(from: 0xDA7E_0000, count: 20) {
      var random = PropertyRandom(seed: seed)
      for _ in 0..<500 {
        let milliseconds = random.chance(30)
          ? 1_700_000_000_000 + Int64(random.int(0...400_000_000_000))
          : Self.randomMilliseconds(&random, in: Self.modelled)
        let date = JSONDate.date(milliseconds: milliseconds)
        let text = try JSONDate.text(date)
        #expect(text == Self.modelText(milliseconds), "seed \(seed): \(milliseconds)")
        #expect(try JSONDate.date(from: text) == date, "seed \(seed): \(text)")
        #expect(JSONDate.milliseconds(date) == milliseconds)
        // A clock's date, between milliseconds, is written as the nearest one and read back as
        // the date ``JSONDate/rounded(_:)`` gives.
        let between = Date(timeIntervalSince1970: Double(milliseconds) / 1000 + Double(random.int(-400...400)) / 1_000_000)
        #expect(try JSONDate.text(between) == text, "seed \(seed): \(milliseconds)")
        #expect(try JSONDate.date(from: JSONDate.text(between)) == JSONDate.rounded(between))
      }
    }
  }

  /// An auditor sorts timestamps as text: their order is the dates' order, from the first day of
  /// year 0000 to the last of 9999.
  @Test func timestampsSortAsTheirDatesDoAcrossEveryYearTheySpell() throws {
    var random = PropertyRandom(seed: PropertyRandom.replayed ?? 0xDA7E_0100)
    let last: Int64 = 253_402_300_799_999
    var samples = [Self.first, Self.first + 1, last - 1, last, 0, -1, 951_782_400_000, 951_868_800_000]
    for _ in 0..<5_000 { samples.append(Self.randomMilliseconds(&random, in: Self.first...last)) }
    let texts = try samples.map { try JSONDate.text(JSONDate.date(milliseconds: $0)) }
    for (milliseconds, text) in zip(samples, texts) {
      #expect(try JSONDate.date(from: text) == JSONDate.date(milliseconds: milliseconds), "\(text)")
    }
    let byDate = zip(samples, texts).sorted { $0.0 < $1.0 }.map(\.1)
    #expect(byDate == texts.sorted())
    #expect(texts[0] == "0000-01-01T00:00:00.000Z" && texts[3] == "9999-12-31T23:59:59.999Z")
    #expect(texts[6] == "2000-02-29T00:00:00.000Z" && texts[7] == "2000-03-01T00:00:00.000Z")
    #expect(throws: JSONDateError.outOfRange) { try JSONDate.text(JSONDate.date(milliseconds: last + 1)) }
    #expect(throws: JSONDateError.outOfRange) { try JSONDate.text(JSONDate.date(milliseconds: Self.first - 1)) }
    for unspellable in [Double.nan, .infinity, -.infinity, 1e300] {
      #expect(throws: JSONDateError.outOfRange) { try JSONDate.text(Date(timeIntervalSinceReferenceDate: unspellable)) }
    }
  }

  /// What reading takes, against RFC 3339's grammar and Foundation's calendar: hostile texts made
  /// from valid ones by changing a field, a separator or a digit.
  @Test func readingTakesExactlyTheTimestampsRFC3339Allows() throws {
    var taken = 0
    var refused = 0
    for seed in PropertyRandom.seeds(from: 0xDA7E_0200, count: 20) {
      var random = PropertyRandom(seed: seed)
      for _ in 0..<300 {
        let text = Self.hostileTimestamp(&random)
        let read = try? JSONDate.date(from: text)
        let model = Self.modelRead(text)
        #expect(read == model, "seed \(seed): \(text.debugDescription)")
        if read == nil { refused += 1 } else { taken += 1 }
      }
    }
    // Both answers are asked for, often.
    #expect(taken > 1_000 && refused > 1_000, "\(taken) taken, \(refused) refused")
  }

  /// The independent reading: RFC 3339's `date-time` as a regular expression, its ranges checked
  /// by Foundation's calendar, the fraction rounded half up at the millisecond. A year before
  /// 1583 is read 2000 years later, then moved back by as many days: the Gregorian calendar
  /// repeats every 400 years.
  static func modelRead(_ text: String) -> Date? {
    if let year = Int(text.prefix(4)), text.prefix(4).allSatisfy(\.isASCII), year < 1583 {
      let later = String(format: "%04d", year + 2000) + text.dropFirst(4)
      return modelRead(later).map { Date(timeIntervalSince1970: $0.timeIntervalSince1970 - 730_485 * 86_400) }
        .map { JSONDate.date(milliseconds: JSONDate.milliseconds($0)!) }
    }
    let grammar = /([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?([Zz]|([+-])([0-9]{2}):([0-9]{2}))/
    guard let match = text.wholeMatch(of: grammar) else { return nil }
    let (year, month, day) = (Int(match.1)!, Int(match.2)!, Int(match.3)!)
    let (hour, minute, second) = (Int(match.4)!, Int(match.5)!, Int(match.6)!)
    guard (1583...9999).contains(year), hour < 24, minute < 60, second < 60 else { return nil }
    let components = DateComponents(year: year, month: month, day: day)
    guard (1...12).contains(month), let day0 = calendar.date(from: components),
      calendar.dateComponents([.year, .month, .day], from: day0) == components
    else { return nil }
    var offsetMinutes = 0
    if let sign = match.9, let hours = match.10, let minutes = match.11 {
      guard Int(hours)! < 24, Int(minutes)! < 60 else { return nil }
      offsetMinutes = (sign == "-" ? -1 : 1) * (Int(hours)! * 60 + Int(minutes)!)
    }
    let digits = match.7.map { Array($0.dropFirst()) } ?? []
    let four = (digits + Array(repeating: "0", count: 4)).prefix(4)
    let fraction = (Int(String(four))! + 5) / 10
    let seconds = Int64(day0.timeIntervalSince1970) + Int64(hour * 3600 + minute * 60 + second - offsetMinutes * 60)
    return JSONDate.date(milliseconds: seconds * 1000 + Int64(fraction))
  }

  static func hostileTimestamp(_ random: inout PropertyRandom) -> String {
    func two(_ range: ClosedRange<Int>) -> String { String(format: "%02d", random.int(range)) }
    var year = String(format: "%04d", random.chance(90) ? random.int(1583...9999) : random.int(0...1582))
    var parts = [
      year, "-", two(random.chance(90) ? 1...12 : 0...13), "-", two(random.chance(90) ? 1...28 : 0...32),
      random.pick(["T", "T", "T", "t", " ", ""]), two(random.chance(90) ? 0...23 : 0...25), ":",
      two(random.chance(90) ? 0...59 : 0...61), ":", two(random.chance(90) ? 0...59 : 0...61),
    ]
    if random.chance(60) {
      parts.append(random.chance(95) ? "." : ",")
      parts.append(String((0..<random.int(0...12)).map { _ in Character(String(random.int(0...9))) }))
    }
    parts.append(random.pick(["Z", "Z", "z", "+02:00", "-05:30", "+23:59", "+24:00", "-00:60", "+0200", "", "Z ", "ZZ"]))
    if random.chance(10) {
      // One character swapped for something no timestamp holds: a NUL, a fullwidth or Arabic
      // digit, an emoji.
      let index = random.int(0...parts.count - 1)
      parts[index] = random.pick(["\u{0}", "２", "٣", "😀", "\u{301}", ""]) + parts[index].dropFirst()
    }
    if random.chance(3) { year = "+" + year }
    return parts.joined()
  }

  /// The audit export reads a time only as it writes it: one spelling for each millisecond.
  @Test func theCanonicalReadingTakesOneSpellingOfEachDate() throws {
    var random = PropertyRandom(seed: PropertyRandom.replayed ?? 0xDA7E_0300)
    for _ in 0..<2_000 {
      let milliseconds = Self.randomMilliseconds(&random, in: Self.first...253_402_300_799_999)
      let text = try #require(JSONDate.text(milliseconds: milliseconds))
      #expect(JSONDate.milliseconds(canonical: text) == milliseconds, "\(text)")
    }
    let canonical = "2026-12-01T09:30:00.000Z"
    #expect(JSONDate.milliseconds(canonical: canonical) == 1_796_117_400_000)
    // Other spellings of the same date, which reading takes and the canonical reading does not.
    for other in ["2026-12-01T09:30:00Z", "2026-12-01T09:30:00.000z", "2026-12-01t09:30:00.000Z",
                  "2026-12-01T09:30:00.0000Z", "2026-12-01T10:30:00.000+01:00"] {
      #expect(try JSONDate.date(from: other) == JSONDate.date(from: canonical), "\(other)")
      #expect(JSONDate.milliseconds(canonical: other) == nil, "\(other)")
    }
    #expect(JSONDate.milliseconds(canonical: canonical + " ") == nil && JSONDate.milliseconds(canonical: "") == nil)
  }

  @Test func theCodersWriteDatesAsTimestampsAndReadNothingElse() throws {
    struct Dated: Codable, Equatable {
      var at: Date
    }
    let dated = Dated(at: try JSONDate.date(from: "2026-12-01T10:30:00.5+01:00"))
    let text = String(decoding: try JSONCoders.encoder().encode(dated), as: UTF8.self)
    #expect(text == #"{"at":"2026-12-01T09:30:00.500Z"}"#)
    #expect(try JSONCoders.decoder().decode(Dated.self, from: Data(text.utf8)) == dated)
    #expect(try JSONValue(encoding: dated) == ["at": "2026-12-01T09:30:00.500Z"])
    for wrong in [#"{"at":817405200}"#, #"{"at":"2026-12-01"}"#, #"{"at":"yesterday"}"#] {
      do {
        _ = try WireCoding().decode(Dated.self, from: Data(wrong.utf8))
        Issue.record("\(wrong) was read as a date")
      } catch {
        #expect(error.description.contains(#"ISO-8601 UTC, such as "2026-12-01T09:30:00.000Z" (at at)"#), "\(error)")
      }
    }
  }
}
