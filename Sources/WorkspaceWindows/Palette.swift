import Workspace
import ConcordApp
import Foundation

/// The colours of Workspace's windows: ANSI styles when the terminal shows them, nothing
/// when it does not (`NO_COLOR` set, `TERM` unset or `dumb`).
///
/// Renderers lay text out by its visible width first and colour it last, so a style never
/// counts toward a column's width.
public struct Palette: Sendable {
  public var enabled: Bool

  public init(enabled: Bool) { self.enabled = enabled }

  /// The terminal's palette, decided once from the environment.
  public static let current: Palette = {
    let environment = ProcessInfo.processInfo.environment
    let term = environment["TERM"] ?? ""
    return Palette(enabled: environment["NO_COLOR"] == nil && !term.isEmpty && term != "dumb")
  }()

  public static let plain = Palette(enabled: false)

  func style(_ text: String, _ code: String) -> String {
    enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  func bold(_ text: String) -> String { style(text, "1") }
  func dim(_ text: String) -> String { style(text, "2") }
  func red(_ text: String) -> String { style(text, "31") }
  func green(_ text: String) -> String { style(text, "32") }
  func yellow(_ text: String) -> String { style(text, "33") }
  func magenta(_ text: String) -> String { style(text, "35") }
  func cyan(_ text: String) -> String { style(text, "36") }
  /// A mention of the window's own person: bold yellow on reverse, to be seen at a glance.
  func mention(_ text: String) -> String { style(text, "1;7;33") }
}

/// Dates as windows show them, in the window's own time zone, in fixed English words: a
/// window redraws often, and a date formatter is costly to make.
enum DateText {
  static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

  /// "Sat 22 Nov 17:00"; the year is added when it is not this year's.
  static func short(_ date: Date, now: Date = Date(), calendar: Calendar = .current) -> String {
    let parts = calendar.dateComponents([.weekday, .day, .month, .year], from: date)
    let (weekday, day, month, year) = (parts.weekday ?? 1, parts.day ?? 1, parts.month ?? 1, parts.year ?? 0)
    let sameYear = year == calendar.component(.year, from: now)
    return "\(weekdays[weekday - 1]) \(day) \(months[month - 1])" + (sameYear ? "" : " \(year)") + " "
      + clock(date, calendar)
  }

  /// "17:05" for today, else ``short(_:now:calendar:)``.
  static func time(_ date: Date, now: Date = Date(), calendar: Calendar = .current) -> String {
    calendar.isDate(date, inSameDayAs: now) ? clock(date, calendar) : short(date, now: now, calendar: calendar)
  }

  private static func clock(_ date: Date, _ calendar: Calendar) -> String {
    let parts = calendar.dateComponents([.hour, .minute], from: date)
    let (hour, minute) = (parts.hour ?? 0, parts.minute ?? 0)
    return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
  }
}
