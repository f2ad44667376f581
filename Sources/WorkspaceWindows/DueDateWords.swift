import ConcordApp
import Foundation
import Workspace

/// A due date in the words people type, or `none` to clear it:
///
/// - a day: `today`, `tomorrow`, `friday` (or `fri`, or `next friday`: the coming one, never
///   today), `dec 3`, `3 dec`, `december 3` (the next one), `2026-12-01`, `next week` (Monday);
/// - a time: `17:00`, `9:30`, `3pm`, `9:30am`, `noon`;
/// - both, in either order: `tomorrow 5pm`, `friday 9am`, `17:00 tomorrow`;
/// - or `tonight` (20:00), `eod` (17:00), `in 2 hours`, `in 2h`, `in 30m`, `in 3 days`.
///
/// A day without a time means 17:00 that day; a time alone means the next time the clock
/// shows it. A date in the past is refused, read back. Dates are read in the window's own time
/// zone and sent as an instant, so every window shows the same moment.
///
/// ```swift
/// try DueDateWords.parse(["tomorrow", "5pm"], now: .now)   // tomorrow at 17:00
/// try DueDateWords.parse(["none"], now: .now)              // nil: no due date
/// ```
public enum DueDateWords {
  /// The hour a day without a time falls due.
  public static let defaultHour = 17

  static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
  static let months = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
    "december",
  ]

  public static func parse(_ words: [String], now: Date = Date(), calendar: Calendar = .current) throws -> Date? {
    let words = words.map { $0.lowercased() }.filter { !$0.isEmpty && $0 != "at" }
    guard let first = words.first else { throw missing }
    if ["none", "clear", "never", "no"].contains(first), words.count == 1 { return nil }
    let date: Date
    if first == "in" {
      date = try relative(Array(words.dropFirst()), now: now, calendar: calendar)
    } else {
      date = try absolute(words, now: now, calendar: calendar)
    }
    guard date > now else {
      throw CommandError("\(words.joined(separator: " ")) is \(read(date, calendar)), which has passed; \(examples)")
    }
    return date
  }

  /// A day and a time, in either order; either may be left out.
  static func absolute(_ words: [String], now: Date, calendar: Calendar) throws -> Date {
    let today = calendar.startOfDay(for: now)
    switch words {
    case ["tonight"]: return try at(today, 20, 0, calendar)
    case ["eod"]: return try at(today, defaultHour, 0, calendar)
    case ["next", "week"]:
      return try at(day(after: try weekday(1, from: today, calendar), 0, calendar), defaultHour, 0, calendar)
    default: break
    }
    var time: (Int, Int)?
    var dayWords: [String] = []
    for word in words {
      if time == nil, let clock = clock(word) { time = clock } else { dayWords.append(word) }
    }
    guard !dayWords.isEmpty else {
      guard let (hour, minute) = time else { throw missing }
      let todayAt = try at(today, hour, minute, calendar)
      return todayAt > now ? todayAt : try at(day(after: today, 1, calendar), hour, minute, calendar)
    }
    let day = try self.day(dayWords, today: today, calendar: calendar)
    let (hour, minute) = time ?? (defaultHour, 0)
    return try at(day, hour, minute, calendar)
  }

  /// The start of the day one or two words name.
  static func day(_ words: [String], today: Date, calendar: Calendar) throws -> Date {
    let text = words.joined(separator: " ")
    var words = words
    if words.count == 2, words[0] == "next" { words.removeFirst() }
    if words.count == 1 {
      let word = words[0]
      switch word {
      case "today": return today
      case "tomorrow": return try day(after: today, 1, calendar)
      // Read, so that it is refused as a date that has passed rather than as a word unknown.
      case "yesterday": return try day(after: today, -1, calendar)
      default: break
      }
      if let index = weekdays.firstIndex(where: { $0 == word || $0.prefix(3) == word }) {
        return try weekday(index, from: today, calendar)
      }
      if let date = isoDate(word, calendar) { return date }
    }
    if words.count == 2, let date = try monthDay(words, today: today, calendar: calendar) { return date }
    throw unreadable(text)
  }

  /// The next `index` weekday (0 is Sunday) after `today`, never today.
  static func weekday(_ index: Int, from today: Date, _ calendar: Calendar) throws -> Date {
    let current = calendar.component(.weekday, from: today) - 1
    let ahead = (index - current + 7) % 7
    return try day(after: today, ahead == 0 ? 7 : ahead, calendar)
  }

  /// `2026-12-01`, when it is a real date: the calendar rolls a 13th month or a 32nd day over
  /// into the next, and a date typed must be the date meant.
  static func isoDate(_ word: String, _ calendar: Calendar) -> Date? {
    let parts = word.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
    guard parts.count == 3, let year = parts[0], let month = parts[1], let day = parts[2] else { return nil }
    return exactDate(year: year, month: month, day: day, calendar)
  }

  /// `dec 3` or `3 dec` (a month's name or its first three letters): the next such day.
  static func monthDay(_ words: [String], today: Date, calendar: Calendar) throws -> Date? {
    func month(_ word: String) -> Int? {
      months.firstIndex { $0 == word || (word.count >= 3 && $0.hasPrefix(word)) }.map { $0 + 1 }
    }
    let (monthNumber, dayNumber): (Int, Int)
    if let m = month(words[0]), let d = Int(words[1]) {
      (monthNumber, dayNumber) = (m, d)
    } else if let d = Int(words[0]), let m = month(words[1]) {
      (monthNumber, dayNumber) = (m, d)
    } else {
      return nil
    }
    let year = calendar.component(.year, from: today)
    guard let thisYear = exactDate(year: year, month: monthNumber, day: dayNumber, calendar) else {
      // 29 February: the next year that has one, within the next few.
      for ahead in 1...8 {
        if let date = exactDate(year: year + ahead, month: monthNumber, day: dayNumber, calendar) { return date }
      }
      throw unreadable(words.joined(separator: " "))
    }
    return thisYear >= today ? thisYear : exactDate(year: year + 1, month: monthNumber, day: dayNumber, calendar)
  }

  static func exactDate(year: Int, month: Int, day: Int, _ calendar: Calendar) -> Date? {
    let components = DateComponents(year: year, month: month, day: day)
    guard let date = calendar.date(from: components),
      calendar.dateComponents([.year, .month, .day], from: date) == components
    else { return nil }
    return date
  }

  /// `in 2 hours`, `in 2h`, `in 30 min`, `in 3 days`, `in 1 week`.
  static func relative(_ words: [String], now: Date, calendar: Calendar) throws -> Date {
    let text = (["in"] + words).joined(separator: " ")
    var amountText: String
    var unitText: String
    if words.count == 2 {
      (amountText, unitText) = (words[0], words[1])
    } else if words.count == 1, let split = words[0].firstIndex(where: { !$0.isNumber }) {
      (amountText, unitText) = (String(words[0][..<split]), String(words[0][split...]))
    } else {
      throw unreadable(text)
    }
    guard let amount = Int(amountText), amount > 0, amount <= 100_000 else { throw unreadable(text) }
    if unitText.hasSuffix("s"), unitText.count > 1 { unitText.removeLast() }
    let component: Calendar.Component
    switch unitText {
    case "minute", "min", "m": component = .minute
    case "hour", "hr", "h": component = .hour
    case "day", "d": component = .day
    case "week", "wk", "w": component = .weekOfYear
    default: throw unreadable(text)
    }
    guard let date = calendar.date(byAdding: component, value: amount, to: now) else { throw unreadable(text) }
    return date
  }

  /// `17:00`, `9:30`, `3pm`, `9:30am`, `12am` (midnight), `noon`, as hour and minute.
  static func clock(_ word: String) -> (Int, Int)? {
    if word == "noon" { return (12, 0) }
    var text = Substring(word)
    var meridiem: String?
    for suffix in ["am", "pm"] where text.hasSuffix(suffix) {
      meridiem = suffix
      text = text.dropLast(2)
    }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard let hour = Int(parts[0]), parts[0].count <= 2 else { return nil }
    var minute = 0
    if parts.count == 2 {
      guard parts[1].count == 2, let value = Int(parts[1]) else { return nil }
      minute = value
    } else if parts.count != 1 || meridiem == nil {
      return nil
    }
    guard (0..<60).contains(minute) else { return nil }
    guard let meridiem else { return (0..<24).contains(hour) ? (hour, minute) : nil }
    guard (1...12).contains(hour) else { return nil }
    return (hour % 12 + (meridiem == "pm" ? 12 : 0), minute)
  }

  static func day(after day: Date, _ count: Int, _ calendar: Calendar) throws -> Date {
    guard let date = calendar.date(byAdding: .day, value: count, to: day) else { throw missing }
    return calendar.startOfDay(for: date)
  }

  static func at(_ day: Date, _ hour: Int, _ minute: Int, _ calendar: Calendar) throws -> Date {
    guard let date = calendar.date(bySettingHour: hour, minute: minute, second: 0, of: day) else {
      throw missing
    }
    return date
  }

  /// "Sat 21 Nov 2026 09:00", to read a date back to the person who typed it.
  static func read(_ date: Date, _ calendar: Calendar) -> String {
    let parts = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute], from: date)
    let weekday = weekdays[(parts.weekday ?? 1) - 1].prefix(3).capitalized
    let month = months[(parts.month ?? 1) - 1].prefix(3).capitalized
    let clock = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    return "\(weekday) \(parts.day ?? 1) \(month) \(parts.year ?? 0) \(clock)"
  }

  // MARK: - Mistakes

  static let examples = "try tomorrow 5pm, friday 9am, dec 3, in 2h, 2026-12-01 09:30, or none"
  static var missing: CommandError { CommandError("say when: \(examples)") }
  static func unreadable(_ text: String) -> CommandError { CommandError("\"\(text)\" is not a date I can read; \(examples)") }
}
