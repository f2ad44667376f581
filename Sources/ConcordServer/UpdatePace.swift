/// How often a window may be written a scope's changes: at most once per interval, as a window
/// at the end of a slow link asks (`hello`'s update interval); as they come when it asks for
/// none. A change that comes sooner is held, and a release is asked for when it may go.
///
/// ```swift
/// var pace = UpdatePace(every: 20_000_000) { nanoseconds in schedule(nanoseconds) }
/// let heldUntil = pace.nextUpdate(after: now)                 // now + 20 ms
/// pace.mayUpdate(heldUntil: heldUntil, now: now + 5_000_000)  // false: a release in 15 ms
/// pace.takeRelease()?()                                       // schedules it
/// pace.released()                                             // it came
/// ```
struct UpdatePace {
  /// Whether a release of held changes is wanted.
  enum Release {
    case none
    /// Asked for under the queue's lock, to be scheduled once the lock is let go, after the
    /// nanoseconds it holds.
    case due(after: UInt64)
    /// Scheduled: the held changes are queued when it comes.
    case scheduled
  }

  /// The least time between two updates of a scope, in nanoseconds; 0 for none.
  let interval: UInt64
  private(set) var release = Release.none
  /// Asks the connection to release the held changes after the given nanoseconds.
  private let schedule: (@Sendable (UInt64) -> Void)?

  /// No pace: every change is written as it comes.
  init() {
    interval = 0
    schedule = nil
  }

  init(every interval: UInt64, release schedule: @escaping @Sendable (UInt64) -> Void) {
    self.interval = interval
    self.schedule = schedule
  }

  var isPaced: Bool { interval != 0 }

  /// When a scope updated at `now` may be updated next.
  func nextUpdate(after now: UInt64) -> UInt64 { now + interval }

  /// Whether a scope held until `heldUntil` may be updated at `now`; when it may not, a release
  /// is asked for then (once, whichever scope asks first: it releases them all).
  mutating func mayUpdate(heldUntil: UInt64, now: UInt64) -> Bool {
    guard now < heldUntil else { return true }
    if case .none = release { release = .due(after: heldUntil - now) }
    return false
  }

  /// The release asked for, to be run once the queue's lock is let go; it is scheduled from then.
  mutating func takeRelease() -> (@Sendable () -> Void)? {
    guard case let .due(delay) = release, let schedule else { return nil }
    release = .scheduled
    return { schedule(delay) }
  }

  /// The release came: the next held change asks for another.
  mutating func released() { release = .none }
}
