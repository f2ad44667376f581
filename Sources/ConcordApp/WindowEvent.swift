import Foundation

/// A window attaching to or detaching from a scope.
public struct WindowEvent: Sendable, Equatable {
  /// The account of the window's process, as the kernel reports it.
  public var user: String
  /// The scope, with its parameter (`card:42`).
  public var scope: String
  /// The connection's id, unique while the daemon runs.
  public var window: String
  /// The daemon's clock when it happened: an app that keeps the time in the action replays it
  /// as it was, like ``ActionOrigin/at``.
  public var at: Date

  package init(user: String, scope: String, window: String, at: Date) {
    self.user = user
    self.scope = scope
    self.window = window
    self.at = at
  }
}
