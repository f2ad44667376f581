import Foundation

/// An action with who sent it and when the daemon took it.
///
/// The daemon fills both from the window's connection (its peer credentials and its clock), and
/// the log keeps them inside the action: replaying the log dates and signs every change exactly
/// as it was the first time, which a clock read inside a reducer could not.
///
/// ```swift
/// .board(Authored(user: "alice", at: now, .addCard(title: "Fix login", column: "todo")))
/// ```
public struct Authored<Action: Sendable>: Sendable {
  /// The account that sent the action.
  public var user: String
  /// When the daemon took it.
  public var at: Date
  public var action: Action

  public init(user: String, at: Date, _ action: Action) {
    self.user = user
    self.at = at
    self.action = action
  }
}

extension Authored: Equatable where Action: Equatable {}
extension Authored: Codable where Action: Codable {}
