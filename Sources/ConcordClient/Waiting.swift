import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A clock the waiting helpers read and sleep on: the system's, or a test's, which moves only
/// when it is slept on.
public protocol WaitingClock {
  /// Seconds, from any fixed moment.
  var now: Double { get }
  func sleep(_ seconds: Double)
}

/// The system's clock: the time since boot, which never steps back, and a real sleep.
public struct SystemWaitingClock: WaitingClock {
  public init() {}

  public var now: Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  public func sleep(_ seconds: Double) { usleep(useconds_t(max(0, seconds) * 1_000_000)) }
}

/// The one way Concord waits on the outside world — a process to exit, a socket to answer, a
/// lock to be let go: try, and try again every so often, until it works or time is up.
///
/// ```swift
/// let pid = try Waiting.until(30, every: 0.05) { try? ClientConnection(socket: path) }
/// // nil: not within 30 s
/// ```
public enum Waiting {
  /// `attempt`'s first value, tried every `interval` seconds until `timeout` seconds have
  /// passed (once at least); nil when time ran out. An error `attempt` throws ends the wait.
  public static func until<Value, Failure: Error>(
    _ timeout: Double, every interval: Double, clock: some WaitingClock = SystemWaitingClock(),
    _ attempt: () throws(Failure) -> Value?
  ) throws(Failure) -> Value? {
    let deadline = clock.now + timeout
    while true {
      if let value = try attempt() { return value }
      let left = deadline - clock.now
      guard left > 0 else { return nil }
      clock.sleep(min(interval, left))
    }
  }
}

/// How long to wait before trying again after a failure: from `first`, doubling up to
/// `limit`; each wait a random part (half to all) of the current one, so that windows that
/// lost one daemon do not all call back at once.
///
/// ```swift
/// var backoff = Backoff(first: 0.25, limit: 2)
/// backoff.next(jitter: 1)   // 0.25
/// backoff.next(jitter: 1)   // 0.5
/// backoff.reset()           // connected again: 0.25 next
/// ```
public struct Backoff: Sendable, Equatable {
  public let first: Double
  public let limit: Double
  /// The wait the next failure gets, before jitter.
  public private(set) var current: Double

  public init(first: Double, limit: Double) {
    self.first = first
    self.limit = limit
    current = first
  }

  /// The wait before the next try: `jitter` (0.5 to 1, random unless a test says) of the
  /// current one; the one after doubles, up to the limit.
  public mutating func next(jitter: Double = Double.random(in: 0.5...1)) -> Double {
    let wait = current * jitter
    current = min(current * 2, limit)
    return wait
  }

  /// It worked: the next failure starts from the first wait again.
  public mutating func reset() { current = first }
}
