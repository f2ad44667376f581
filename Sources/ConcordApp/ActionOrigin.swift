import Foundation

/// Who sent an action from a window, and when the daemon took it.
public struct ActionOrigin: Sendable, Equatable {
  /// The account of the window's process, as the kernel reports it.
  public var user: String
  /// The window's connection id.
  public var window: String
  /// The daemon's clock when it took the action: the time the log records for it.
  public var at: Date

  /// An origin, as the daemon makes one for each action it takes (tests and replays make them
  /// too).
  ///
  /// - Parameters:
  ///   - user: the sender's account name.
  ///   - window: the sender's connection id.
  ///   - at: when the daemon took the action.
  public init(user: String, window: String, at: Date) {
    self.user = user
    self.window = window
    self.at = at
  }
}
