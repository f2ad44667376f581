/// Whether a window is alive, as the daemon judges it from what happened and when: the last line
/// it sent, the `ping` it has not answered, the moment its socket stopped taking bytes, and
/// whether the daemon is looking at what it sends at all (backpressure).
///
/// A machine told events with their times, and asked for its verdict at a time: it reads no
/// clock, so a test drives it in test seconds. ``Connection`` keeps one; the registry asks every
/// window's verdict each second.
///
/// ```swift
/// var liveness = Liveness(at: 0)
/// liveness.verdict(at: 31 * second, timing: .init())   // .ping: quiet for more than 30 s
/// liveness.verdict(at: 62 * second, timing: .init())   // .gone: the ping unanswered for 31 s
/// ```
struct Liveness: Sendable, Equatable {
  /// How long the daemon waits before each verdict.
  struct Timing: Sendable, Equatable {
    /// A window that has said nothing for this long is sent a `ping`.
    var pingInterval: Duration = .seconds(30)
    /// A `ping` unanswered for this long means the peer is dead.
    var pingTimeout: Duration = .seconds(30)
    /// A window that takes no bytes for this long while messages wait is dropped.
    var stuckTimeout: Duration = .seconds(30)
  }

  /// What to do with the window now.
  enum Verdict: Sendable, Equatable {
    /// Nothing: it spoke lately, or its ping is not yet overdue.
    case alive
    /// Send it a `ping` (marked sent: the next verdicts wait for its answer).
    case ping
    /// It has read nothing for longer than the stuck timeout while messages waited for it.
    case stuck
    /// It did not answer its `ping` within the timeout.
    case gone
  }

  /// Monotonic nanoseconds of the last line the window sent.
  private(set) var heardAt: UInt64
  /// When the `ping` it has not answered yet was sent.
  private(set) var pingSentAt: UInt64?
  /// When its socket stopped taking bytes while messages waited for it.
  private(set) var blockedSince: UInt64?
  /// Whether the daemon has stopped looking at what the window sends (backpressure): its
  /// `pong` may be among what waits, so it is neither pinged nor found dead meanwhile.
  private(set) var inputPaused = false

  /// A window that connected at `now`.
  init(at now: UInt64) {
    heardAt = now
  }

  /// The window sent a line: it is alive, and its ping (if any) is answered.
  mutating func heard(at now: UInt64) {
    heardAt = now
    pingSentAt = nil
  }

  /// The daemon stopped (true) or resumed (false) taking in what the window sends. Resuming
  /// counts as hearing it: what it said meanwhile was not looked at.
  ///
  /// - Parameter now: read only when the state changes (the clock is not free, and this is
  ///   said on every held line).
  mutating func setInputPaused(_ paused: Bool, at now: @autoclosure () -> UInt64) {
    guard paused != inputPaused else { return }
    inputPaused = paused
    if !paused { heard(at: now()) }
  }

  /// The socket stopped (true) or resumed (false) taking bytes. Saying it stopped again keeps
  /// the moment it first stopped: a window whose scopes keep changing is told so at every
  /// change, and must still be found stuck once it has read nothing for the timeout.
  ///
  /// - Parameter now: read only when the window first stops (this is said on every write turn).
  mutating func setBlocked(_ blocked: Bool, at now: @autoclosure () -> UInt64) {
    if blocked {
      if blockedSince == nil { blockedSince = now() }
    } else {
      blockedSince = nil
    }
  }

  /// The verdict at `now`; `.ping` marks the ping sent.
  mutating func verdict(at now: UInt64, timing: Timing) -> Verdict {
    if let blockedSince, Self.elapsed(from: blockedSince, to: now) > timing.stuckTimeout { return .stuck }
    guard !inputPaused else { return .alive }
    if let pingSentAt {
      return Self.elapsed(from: pingSentAt, to: now) > timing.pingTimeout ? .gone : .alive
    }
    guard Self.elapsed(from: heardAt, to: now) > timing.pingInterval else { return .alive }
    pingSentAt = now
    return .ping
  }

  private static func elapsed(from start: UInt64, to now: UInt64) -> Duration {
    .nanoseconds(Int64(clamping: now >= start ? now - start : 0))
  }
}
