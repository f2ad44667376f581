import Foundation

/// The actions the daemon sends the hosted app about its own life and its windows.
///
/// They go through the same path as any other action (reduced, logged, then their effects
/// start), so presence is part of the state and replays like everything else.
///
/// ```swift
/// AppLifecycle(
///   booted: .restartReminders,
///   windowAttached: { .presence(.joined(user: $0.user, scope: $0.scope, window: $0.window)) },
///   windowDetached: { .presence(.left(window: $0.window)) })
/// ```
public struct AppLifecycle<Action: Sendable>: Sendable {
  /// Sent once after boot, when the log has been replayed: the moment to re-create long-lived
  /// effects (timers, reminders) from the state, since effects never run during replay.
  public var booted: Action?
  /// The action to take when a window attaches to a scope (who, which scope, which window), or
  /// nil to take none: how an app keeps presence in its state.
  public var windowAttached: (@Sendable (WindowEvent) -> Action?)?
  /// The action to take when a window goes away, or nil to take none.
  public var windowDetached: (@Sendable (WindowEvent) -> Action?)?

  /// The app's answers to its own life's events; leave out the ones it does not care about.
  ///
  /// - Parameters:
  ///   - booted: the action sent once the log has been replayed.
  ///   - windowAttached: the action for a window that attached.
  ///   - windowDetached: the action for a window that left.
  public init(
    booted: Action? = nil,
    windowAttached: (@Sendable (WindowEvent) -> Action?)? = nil,
    windowDetached: (@Sendable (WindowEvent) -> Action?)? = nil
  ) {
    self.booted = booted
    self.windowAttached = windowAttached
    self.windowDetached = windowDetached
  }
}
