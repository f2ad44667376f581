/// Where the daemon's host is in its life, as one value: taking actions, draining what it took
/// before it stops, or stopped — cleanly, or because its log failed (with the reason).
///
/// Events move it on and never back: a host that stopped does not drain, and the first reason
/// it stopped for is the one it keeps.
///
/// ```swift
/// var lifecycle = HostLifecycle()
/// lifecycle.drain()                 // SIGTERM: windows' actions are turned away
/// lifecycle.takesConnectionActions // false
/// lifecycle.reduces                 // true: what was taken is still committed
/// lifecycle.stop(because: nil)      // drained: .stopped(reason: nil)
/// ```
struct HostLifecycle: Equatable, Sendable {
  enum State: Equatable, Sendable {
    case accepting
    /// Shutting down: actions already taken are committed, windows' new ones are turned away.
    case draining
    /// Nothing more is reduced or committed; `reason` is why, when it was not a clean stop.
    case stopped(reason: String?)
  }

  private(set) var state: State = .accepting

  /// Whether an action from a connection (a window, the CLI) may be taken now.
  var takesConnectionActions: Bool { state == .accepting }

  /// Whether anything may still be reduced and committed (the daemon's own actions included).
  var reduces: Bool {
    if case .stopped = state { false } else { true }
  }

  /// Shutdown began.
  mutating func drain() {
    if state == .accepting { state = .draining }
  }

  /// Everything is committed (`reason` nil), or the log failed (`reason` says how).
  mutating func stop(because reason: String?) {
    if case .stopped = state { return }
    state = .stopped(reason: reason)
  }
}
