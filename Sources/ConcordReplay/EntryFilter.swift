import ConcordJSON
import ConcordLog
import Foundation

/// Which entries an inspector shows: every condition given must hold (they combine with "and").
///
/// ```swift
/// var filter = EntryFilter()
/// filter.user = "mallory"
/// filter.scope = "card:"        // a prefix: every card
/// filter.outcome = .refused
/// filter.matches(entry)
/// ```
public struct EntryFilter: Sendable, Equatable {
  /// Applied or refused.
  public enum Outcome: String, Sendable, CaseIterable {
    /// Only actions the daemon applied.
    case applied
    /// Only actions it refused.
    case refused
  }

  /// Only this person's entries (the account name, exactly).
  public var user: String?
  /// Only this scope (`card:7`), or, ending with a colon (`card:`), every scope it begins.
  public var scope: String?
  /// Only applied, or only refused, entries.
  public var outcome: Outcome?
  /// Only entries at or after this time.
  public var since: Date?
  /// Only entries before this time.
  public var until: Date?
  /// Only entries whose action (its JSON, or the app's words for it) contains this text,
  /// ignoring case.
  public var text: String?

  /// A filter that lets every entry through.
  public init() {}

  /// True when no condition is set.
  public var isEmpty: Bool { self == EntryFilter() }

  /// Whether `entry` meets every condition.
  ///
  /// - Parameter entry: an entry with the app's words for it.
  public func matches(_ entry: InspectedEntry) -> Bool {
    guard passes(user: entry.user, scope: entry.scope, applied: entry.outcome.isApplied, at: entry.at) else { return false }
    if let text, !text.isEmpty {
      let found =
        entry.action.range(of: text, options: [.caseInsensitive]) != nil
        || entry.words?.range(of: text, options: [.caseInsensitive]) != nil
      if !found { return false }
    }
    return true
  }

  /// Whether an entry with this record can meet every condition, known without rebuilding any
  /// state: everything but the text, which may be in the app's words for the entry — unless
  /// the app has none, and then it is in the action or nowhere. Decrypting a record is cheap
  /// and rebuilding the states its words need is not, so a walk asks this first.
  ///
  /// - Parameters:
  ///   - record: the entry's record, as the log holds it.
  ///   - withWords: whether the app describes entries in words of its own.
  public func mayMatch(_ record: LogRecord, withWords: Bool) -> Bool {
    guard passes(user: record.user, scope: record.scope, applied: record.outcome.isApplied, at: record.at) else { return false }
    if !withWords, let text, !text.isEmpty { return record.action.range(of: text, options: [.caseInsensitive]) != nil }
    return true
  }

  /// Whether ``mayMatch(_:withWords:)`` turns any record away: when it cannot, looking for
  /// the first record it lets through is wasted reading.
  func narrowsRecords(withWords: Bool) -> Bool {
    user != nil || scope != nil || outcome != nil || since != nil || until != nil || (!withWords && !(text ?? "").isEmpty)
  }

  private func passes(user: String, scope: String, applied: Bool, at: Date) -> Bool {
    if let wanted = self.user, user != wanted { return false }
    if let wanted = self.scope {
      if wanted.hasSuffix(":") {
        guard scope.hasPrefix(wanted) else { return false }
      } else if scope != wanted {
        return false
      }
    }
    if let outcome, (outcome == .applied) != applied { return false }
    if let since, at < since { return false }
    if let until, at >= until { return false }
    return true
  }

  /// The conditions in words, as an inspector's title and a selection export's header say them:
  /// `user=mallory scope=card: outcome=refused`; `every entry` when there are none.
  public var summary: String {
    var parts: [String] = []
    if let user { parts.append("user=\(user)") }
    if let scope { parts.append("scope=\(scope)") }
    if let outcome { parts.append("outcome=\(outcome.rawValue)") }
    if let since { parts.append("since=\(Self.time(since))") }
    if let until { parts.append("until=\(Self.time(until))") }
    if let text, !text.isEmpty { parts.append("text=\(text)") }
    return parts.isEmpty ? "every entry" : parts.joined(separator: " ")
  }

  /// A time as the log's export writes one: ISO 8601, UTC, to the millisecond.
  static func time(_ date: Date) -> String {
    (try? JSONDate.text(date)) ?? "\(date.timeIntervalSince1970)"
  }
}
