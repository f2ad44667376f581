import Workspace
import ConcordApp
import Foundation

/// A due date in the words people type: `tomorrow 17:00`, `friday`, `in 2 hours`,
/// `2026-12-01 09:30`, `17:00`, or `none` to clear it.
///
/// A day without a time means 17:00 that day; a time alone means the next time the clock
/// shows it; a weekday means the next such day, never today. Dates are read in the window's
/// own time zone and sent as an instant, so every window shows the same moment.
///
/// ```swift
/// try DueDateWords.parse(["tomorrow", "17:00"], now: .now)   // tomorrow at 17:00
/// try DueDateWords.parse(["none"], now: .now)                // nil: no due date
/// ```
public enum DueDateWords {
  /// The hour a day without a time falls due.
  public static let defaultHour = 17

  static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

  public static func parse(_ words: [String], now: Date = Date(), calendar: Calendar = .current) throws -> Date? {
    let words = words.map { $0.lowercased() }
    guard let first = words.first else { throw missing }
    if ["none", "clear", "never", "no"].contains(first), words.count == 1 { return nil }
    if first == "in" { return try relative(Array(words.dropFirst()), now: now, calendar: calendar) }
    guard words.count <= 2 else { throw unreadable(words.joined(separator: " ")) }

    if words.count == 1, let (hour, minute) = clock(first) {
      let today = try at(calendar.startOfDay(for: now), hour, minute, calendar)
      return today > now ? today : try at(day(after: calendar.startOfDay(for: now), 1, calendar), hour, minute, calendar)
    }
    let day = try self.day(first, now: now, calendar: calendar)
    guard words.count == 2 else { return try at(day, defaultHour, 0, calendar) }
    guard let (hour, minute) = clock(words[1]) else { throw unreadable(words[1]) }
    return try at(day, hour, minute, calendar)
  }

  /// The start of the day a word names.
  static func day(_ word: String, now: Date, calendar: Calendar) throws -> Date {
    let today = calendar.startOfDay(for: now)
    switch word {
    case "today": return today
    case "tomorrow": return try day(after: today, 1, calendar)
    default: break
    }
    if let index = weekdays.firstIndex(where: { $0 == word || $0.prefix(3) == word }) {
      let current = calendar.component(.weekday, from: today) - 1
      let ahead = (index - current + 7) % 7
      return try day(after: today, ahead == 0 ? 7 : ahead, calendar)
    }
    let parts = word.split(separator: "-").compactMap { Int($0) }
    // The calendar rolls a 13th month or a 32nd day over into the next; a date typed must be
    // the date meant.
    if parts.count == 3, let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])),
      calendar.dateComponents([.year, .month, .day], from: date) == DateComponents(year: parts[0], month: parts[1], day: parts[2])
    {
      return date
    }
    throw unreadable(word)
  }

  static func relative(_ words: [String], now: Date, calendar: Calendar) throws -> Date {
    guard words.count == 2, let amount = Int(words[0]), amount > 0 else {
      throw unreadable((["in"] + words).joined(separator: " "))
    }
    let unit = words[1].hasSuffix("s") && words[1].count > 1 ? String(words[1].dropLast()) : words[1]
    let component: Calendar.Component
    switch unit {
    case "minute", "min", "m": component = .minute
    case "hour", "h": component = .hour
    case "day", "d": component = .day
    case "week", "w": component = .weekOfYear
    default: throw unreadable("in " + words.joined(separator: " "))
    }
    guard let date = calendar.date(byAdding: component, value: amount, to: now) else {
      throw unreadable("in " + words.joined(separator: " "))
    }
    return date
  }

  /// "17:00" or "9:30" as hour and minute.
  static func clock(_ word: String) -> (Int, Int)? {
    let parts = word.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]), parts[1].count == 2,
      (0..<24).contains(hour), (0..<60).contains(minute)
    else { return nil }
    return (hour, minute)
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

  // MARK: - Mistakes

  static let examples = "try tomorrow 17:00, friday, in 2 hours, 2026-12-01 09:30, or none"
  static var missing: CommandError { CommandError("say when: \(examples)") }
  static func unreadable(_ text: String) -> CommandError { CommandError("\"\(text)\" is not a date I can read; \(examples)") }
}
