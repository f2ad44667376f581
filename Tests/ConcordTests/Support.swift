import Clocks
import Concord
import Synchronization

/// A thread-safe list that effects append to, so tests can see what happened and in what order.
final class Journal<Entry: Sendable>: Sendable {
  private let entries = Mutex<[Entry]>([])

  func append(_ entry: Entry) { entries.withLock { $0.append(entry) } }
  var all: [Entry] { entries.withLock { $0 } }
}

/// Polls `condition` until it holds or a generous real-time deadline passes.
///
/// The deadline is for a condition that never comes, not a measure of speed: the test process
/// runs every suite at once on a cooperative pool as wide as the machine has cores (two here),
/// and tests that block a thread (waiting on a child process) can hold all of it for seconds.
/// The task that makes the condition true waits for a thread like this poll does; with 5 s, a
/// cancelled effect's catch once ran after the poll's last look (CI, a batch that took 74 s).
func eventually(
  timeout: Duration = .seconds(30), _ condition: @Sendable () async -> Bool
) async -> Bool {
  let clock = ContinuousClock()
  let deadline = clock.now.advanced(by: timeout)
  while clock.now < deadline {
    if await condition() { return true }
    try? await Task.sleep(for: .milliseconds(2))
  }
  return await condition()
}

/// Lets spawned tasks reach their first suspension point.
func settle() async {
  for _ in 0..<50 { await Task.yield() }
  try? await Task.sleep(for: .milliseconds(5))
}

/// A store for tests driven by a test clock: effects begin before `send` returns, so advancing the
/// clock never races an effect that has not started yet.
func clockedStore<State: Sendable, Action: Sendable, Environment: Sendable>(
  initialState: State,
  reducer: Reducer<State, Action, Environment>,
  environment: Environment,
  clock: any Clock<Duration> = ContinuousClock()
) -> Store<State, Action> {
  Store(
    initialState: initialState, reducer: reducer, environment: environment, clock: clock,
    effectStart: .immediate)
}

func clockedStore<State: Sendable, Action: Sendable>(
  initialState: State, reducer: Reducer<State, Action, Void>
) -> Store<State, Action> {
  clockedStore(initialState: initialState, reducer: reducer, environment: ())
}

/// A test clock that also knows how many effects sleep on it, so a test can advance it only once
/// a repeating effect (a timer) has gone back to sleep.
final class WatchedClock: Clock, Sendable {
  typealias Duration = Swift.Duration
  typealias Instant = TestClock<Swift.Duration>.Instant

  private let base = TestClock()
  private let sleepers = Mutex(0)

  var now: Instant { base.now }
  var minimumResolution: Duration { base.minimumResolution }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    sleepers.withLock { $0 += 1 }
    defer { sleepers.withLock { $0 -= 1 } }
    try await base.sleep(until: deadline, tolerance: tolerance)
  }

  /// Waits until `count` effects sleep on this clock, then advances it by `duration`.
  func advance(by duration: Duration, whenSleeping count: Int = 0) async {
    _ = await eventually { self.sleepers.withLock { $0 } >= count }
    await base.advance(by: duration)
  }
}
