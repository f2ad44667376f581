import Foundation

/// One line telling a person what their last command did, or what happened: a success fades
/// after a few seconds, an error after longer, and a newer one replaces it.
///
/// ```swift
/// let line = OutcomeLine("✓ added #7", isError: false, at: now)
/// line.hasFaded(at: now + 6)   // true
/// ```
public struct OutcomeLine: Equatable, Sendable {
  public let text: String
  public let isError: Bool
  public let at: Date
  /// The queued action it tells of, if it tells that one was queued: its answer replaces it.
  public let queued: Int64?
  /// True for what Tab offers: it belongs to the line being typed, and goes when it is cleared.
  public let listsChoices: Bool

  public init(_ text: String, isError: Bool, at: Date, queued: Int64? = nil, listsChoices: Bool = false) {
    self.text = text
    self.isError = isError
    self.at = at
    self.queued = queued
    self.listsChoices = listsChoices
  }

  /// How long a line stays: 5 s for news, 30 s for an error.
  public var lifetime: TimeInterval { isError ? 30 : 5 }

  public func hasFaded(at now: Date) -> Bool { now.timeIntervalSince(at) > lifetime }
}
