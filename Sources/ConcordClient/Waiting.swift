import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A clock the waiting helpers read and sleep on: the system's, or a test's, which moves only
/// when it is slept on.
public protocol WaitingClock {
  /// Seconds, from any fixed moment.
  var now: Double { get }
  /// Waits `seconds` (a test's clock moves on by them instead).
  ///
  /// - Parameter seconds: how long to wait; nothing when zero or less.
  func sleep(_ seconds: Double)
}

/// The system's clock: the time since boot, which never steps back, and a real sleep.
public struct SystemWaitingClock: WaitingClock {
  /// The system's clock; it holds nothing.
  public init() {}

  /// Seconds since boot (`CLOCK_MONOTONIC`).
  public var now: Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// Sleeps the calling thread for `seconds`.
  ///
  /// - Parameter seconds: how long to sleep; not at all when zero or less.
  public func sleep(_ seconds: Double) { usleep(useconds_t(max(0, seconds) * 1_000_000)) }
}

/// The one way Concord waits on the outside world — a process to exit, a socket to answer, a
/// lock to be let go: try, and try again every so often, until it works or time is up.
///
/// ```swift
/// let connection = Waiting.until(30, every: 0.05) {
///   try? ClientConnection(socket: socket, presence: false)
/// }
/// // nil: no daemon answered within 30 s
/// ```
public enum Waiting {
  /// `attempt`'s first value, tried every `interval` seconds until `timeout` seconds have
  /// passed (once at least); nil when time ran out. An error `attempt` throws ends the wait.
  ///
  /// - Parameters:
  ///   - timeout: how many seconds to keep trying.
  ///   - interval: how many seconds to wait between tries.
  ///   - clock: the clock to read and sleep on; a test gives its own.
  ///   - attempt: one try: a value when it worked, nil to try again.
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
  /// The first wait, in seconds, and the one after a success.
  public let first: Double
  /// The longest wait, in seconds: doubling stops there.
  public let limit: Double
  /// The wait the next failure gets, before jitter.
  public private(set) var current: Double

  /// A backoff that starts at `first` seconds and doubles up to `limit`.
  ///
  /// - Parameters:
  ///   - first: the first wait, in seconds.
  ///   - limit: the longest wait, in seconds.
  public init(first: Double, limit: Double) {
    self.first = first
    self.limit = limit
    current = first
  }

  /// The wait before the next try: `jitter` (0.5 to 1, random unless a test says) of the
  /// current one; the one after doubles, up to the limit.
  ///
  /// - Parameter jitter: the part of the current wait to take, from 0.5 to 1; random unless a
  ///   test gives it.
  public mutating func next(jitter: Double = Double.random(in: 0.5...1)) -> Double {
    let wait = current * jitter
    current = min(current * 2, limit)
    return wait
  }

  /// It worked: the next failure starts from the first wait again.
  public mutating func reset() { current = first }
}
