/// Why a reducer declined an action.
///
/// A reducer refuses an action by returning ``Effect/refuse(_:)``. The runtime then leaves the
/// state exactly as it was before the action, drops every effect the reduction asked for, and
/// hands the reason to whoever sent the action (``StoreTask/refusal``; the daemon sends it back to
/// the window that sent the action).
///
/// ```swift
/// case let .move(card, column):
///   guard state.columns[id: column].map({ !$0.isFull }) ?? false else {
///     return .refuse("Column \(column) is full")
///   }
/// ```
public struct Refusal: Error, Hashable, Sendable, CustomStringConvertible {
  /// The reason, in words a person can act on.
  public var reason: String

  /// A refusal that gives `reason` to whoever sent the action.
  ///
  /// - Parameter reason: what was wrong, in words a person can act on.
  public init(_ reason: String) {
    self.reason = reason
  }

  public var description: String { reason }
}

extension Refusal: ExpressibleByStringInterpolation {
  public init(stringLiteral value: String) {
    self.init(value)
  }
}
