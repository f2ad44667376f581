/// What became of an action: applied, or refused with the reducer's (or the daemon's) reason.
///
/// The one spelling of it, for the log's records and for what a client was answered; the entry
/// an answer names travels beside it, since an action the daemon could not take at all has none.
///
/// ```swift
/// let outcome = ActionOutcome.refused(reason: "no card #999")
/// print(outcome.said(entry: 12))   // refused: no card #999
/// ```
public enum ActionOutcome: Sendable, Equatable {
  case applied
  case refused(reason: String)

  /// The outcome in the words the commands print: "applied as entry 12", "refused: …".
  ///
  /// - Parameter entry: the log's entry the daemon answered with, if any.
  public func said(entry: Int64?) -> String {
    switch self {
    case .applied: entry.map { "applied as entry \($0)" } ?? "applied"
    case let .refused(reason): "refused: \(reason)"
    }
  }

  public var isApplied: Bool { self == .applied }
}
