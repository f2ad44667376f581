import Foundation

/// How every JSON that Concord writes spells a date: an ISO-8601 (RFC 3339) UTC timestamp with
/// milliseconds, such as `2026-12-01T09:30:00.000Z`.
///
/// It is the one date rule of the actions in the log, the states on the wire and in
/// `concord state`, and the snapshots (``JSONCoders`` applies it). A date keeps whole
/// milliseconds: ``rounded(_:)`` is the date a JSON round trip gives, so a daemon that reduces a
/// date it has just taken and a replay that reads it back from the log reach the same state.
///
/// Reading takes any RFC 3339 timestamp: `Z` or an offset (`+02:00`), any number of fraction
/// digits (rounded to the millisecond).
///
/// ```swift
/// try JSONDate.text(Date(timeIntervalSince1970: 0))              // "1970-01-01T00:00:00.000Z"
/// try JSONDate.date(from: "2026-12-01T10:30:00+01:00")             // 09:30 UTC
/// ```
public enum JSONDate {
  /// The JSON text of `date` (without quotes), rounded to the millisecond.
  ///
  /// - Throws: for a date outside the years 0000–9999, which the format cannot spell.
  public static func text(_ date: Date) throws(JSONDateError) -> String {
    guard let milliseconds = milliseconds(date), let text = text(milliseconds: milliseconds) else { throw .outOfRange }
    return text
  }

  /// The timestamp of a whole number of milliseconds since 1970 (the audit export's `time`);
  /// nil outside the years 0000–9999.
  public static func text(milliseconds: Int64) -> String? {
    let (days, inDay) = floorDivision(milliseconds, 86_400_000)
    let (year, month, day) = civil(fromDays: days)
    guard (0...9999).contains(year) else { return nil }
    let second = inDay / 1000
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(second / 3600, 2)):\(pad(second / 60 % 60, 2)):"
      + "\(pad(second % 60, 2)).\(pad(inDay % 1000, 3))Z"
  }

  /// The milliseconds of a timestamp spelled exactly as ``text(milliseconds:)`` spells it; nil
  /// for any other spelling of any date (what the audit export's reader takes).
  public static func milliseconds(canonical text: String) -> Int64? {
    guard text.utf8.count == 24, let date = try? date(from: text), let milliseconds = milliseconds(date),
      self.text(milliseconds: milliseconds) == text
    else { return nil }
    return milliseconds
  }

  /// The date an RFC 3339 timestamp names, rounded to the millisecond.
  public static func date(from text: String) throws(JSONDateError) -> Date {
    var reader = TimestampReader(Array(text.utf8))
    guard let milliseconds = reader.milliseconds() else { throw .notATimestamp }
    return date(milliseconds: milliseconds)
  }

  /// `date` as a JSON round trip gives it back: whole milliseconds. A date the format cannot
  /// spell is returned as it is.
  public static func rounded(_ date: Date) -> Date {
    milliseconds(date).map(date(milliseconds:)) ?? date
  }

  /// Whole milliseconds since 1970 (to the nearest), or nil for a date no `Int64` counts.
  public static func milliseconds(_ date: Date) -> Int64? {
    let value = (date.timeIntervalSince1970 * 1000).rounded()
    // Past ±2^62 ms (146 million years) nothing is spelled; the bound also keeps the conversion
    // from trapping.
    guard value.isFinite, abs(value) < 0x1p62 else { return nil }
    return Int64(value)
  }

  /// The date `milliseconds` after 1970: the one way a date is made from whole milliseconds, so
  /// that equal counts give equal dates.
  public static func date(milliseconds: Int64) -> Date {
    Date(timeIntervalSince1970: Double(milliseconds) / 1000)
  }

  /// Days since 1970-01-01 of a date in the proleptic Gregorian calendar (H. Hinnant's
  /// `days_from_civil`).
  static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = floorDivision(y, 400).quotient
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The inverse of ``days(year:month:day:)``.
  static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let (era, dayOfEra) = floorDivision(days + 719_468, 146_097)
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
    let remainder = value % divisor
    return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
  }

  private static func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}

/// Why a date cannot be written or read as JSON.
public enum JSONDateError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Outside the years 0000–9999.
  case outOfRange
  /// Not an RFC 3339 timestamp.
  case notATimestamp

  public var description: String {
    switch self {
    case .outOfRange: "a date must lie in the years 0000 to 9999"
    case .notATimestamp: "a date is written as ISO-8601 UTC, such as \"2026-12-01T09:30:00.000Z\""
    }
  }
}

/// Reads `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, checking every field's range.
private struct TimestampReader {
  let bytes: [UInt8]
  var index = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  mutating func milliseconds() -> Int64? {
    guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
      expect("T") || expect("t"), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
      let second = number(2)
    else { return nil }
    guard (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year),
      hour < 24, minute < 60, second < 60
    else { return nil }
    var fraction: Int64 = 0
    if expect(".") {
      guard let read = self.fraction() else { return nil }
      fraction = read
    }
    guard let offset = self.offset(), index == bytes.count else { return nil }
    let days = JSONDate.days(year: year, month: month, day: day)
    return ((days * 24 + hour) * 60 + minute - offset) * 60_000 + second * 1000 + fraction
  }

  /// The fraction's milliseconds, rounded half up on its fourth digit (which may carry into the
  /// next second: the sum above takes that).
  private mutating func fraction() -> Int64? {
    var milliseconds: Int64 = 0
    var count = 0
    while index < bytes.count, let digit = digit(bytes[index]) {
      if count < 3 {
        milliseconds = milliseconds * 10 + digit
      } else if count == 3, digit >= 5 {
        milliseconds += 1
      }
      count += 1
      index += 1
    }
    guard count > 0 else { return nil }
    for _ in count..<max(count, 3) { milliseconds *= 10 }
    return milliseconds
  }

  /// The offset from UTC in minutes.
  private mutating func offset() -> Int64? {
    if expect("Z") || expect("z") { return 0 }
    let sign: Int64
    if expect("+") { sign = 1 } else if expect("-") { sign = -1 } else { return nil }
    guard let hours = number(2), expect(":"), let minutes = number(2), hours < 24, minutes < 60 else { return nil }
    return sign * (hours * 60 + minutes)
  }

  private mutating func number(_ width: Int) -> Int64? {
    guard index + width <= bytes.count else { return nil }
    var value: Int64 = 0
    for byte in bytes[index..<index + width] {
      guard let digit = digit(byte) else { return nil }
      value = value * 10 + digit
    }
    index += width
    return value
  }

  private mutating func expect(_ character: Unicode.Scalar) -> Bool {
    guard index < bytes.count, bytes[index] == UInt8(character.value) else { return false }
    index += 1
    return true
  }

  private func digit(_ byte: UInt8) -> Int64? {
    (0x30...0x39).contains(byte) ? Int64(byte - 0x30) : nil
  }

  private static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }
}
