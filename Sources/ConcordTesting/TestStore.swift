import Concord
import CustomDump
import IssueReporting

/// A store for tests that makes you say, step by step, what every action does.
///
/// Exhaustive by default: ``send(_:assert:fileID:filePath:line:column:)`` fails with a readable
/// diff when the state after the action differs from what you describe; actions that effects send
/// back must be accepted with ``receive(_:timeout:assert:fileID:filePath:line:column:)``; and the
/// test fails if, at ``finish(timeout:fileID:filePath:line:column:)`` or when the store goes away,
/// an effect is still running or a received action was never asserted.
///
/// ```swift
/// @Test func savingIsDebounced() async {
///   let clock = TestClock()
///   let store = TestStore(
///     initialState: Counter(), reducer: counter, environment: .test(clock: clock), clock: clock
///   )
///   await store.send(.increment) { $0.count = 1 }
///   await clock.advance(by: .seconds(1))
///   await store.receive(.saved) { $0.lastSaved = 1 }
///   await store.finish()
/// }
/// ```
public final class TestStore<State: Equatable & Sendable, Action: Sendable> {
  /// The state as the test has asserted it so far.
  public private(set) var state: State
  /// How much this store insists on; see ``Exhaustivity``.
  public var exhaustivity: Exhaustivity = .on
  /// How long ``receive(_:timeout:assert:fileID:filePath:line:column:)`` and ``finish(timeout:fileID:filePath:line:column:)``
  /// wait by default.
  public var timeout: Duration = .seconds(1)
  /// How many actions effects have sent that the test has not received yet: zero right after a
  /// clock advance says nothing was due by then.
  public var unreceivedCount: Int { log.received.count }

  let store: Store<State, TestDelivery<Action>>
  let log: ReductionLog<State, Action>
  private let origin: SourceLocation
  /// Set once ``finish(timeout:fileID:filePath:line:column:)`` has checked (and cancelled) the
  /// effects, so that releasing the store does not report them again.
  private var hasFinished = false

  /// Makes a test store.
  ///
  /// ```swift
  /// let clock = TestClock()
  /// let store = TestStore(initialState: Counter(), reducer: counter,
  ///                       environment: .init(clock: clock), clock: clock)
  /// ```
  ///
  /// - Parameters:
  ///   - initialState: the state the test starts from.
  ///   - reducer: the feature under test.
  ///   - environment: its dependencies; test doubles here make effects predictable.
  ///   - clock: the clock that effect-queue delays wait on; pass the test clock that
  ///     the environment uses, so advancing it drives both.
  ///   - fileID: where an effect still running at the end is reported; leave the default (the caller's file).
  ///   - filePath: the caller's file path, for the same report.
  ///   - line: the caller's line.
  ///   - column: the caller's column.
  public init<Environment: Sendable>(
    initialState: State,
    reducer: Reducer<State, Action, Environment>,
    environment: Environment,
    clock: any Clock<Duration> = ContinuousClock(),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let log = ReductionLog<State, Action>()
    self.state = initialState
    self.log = log
    self.origin = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    self.store = Store(
      initialState: initialState,
      reducer: reducer.recording(into: log),
      environment: environment,
      clock: clock,
      // Effects begin before `send` returns, so a test clock never advances past an effect
      // that has not started yet.
      effectStart: .immediate,
      diagnostics: { message in
        reportIssue("An effect failed: \(message)", fileID: fileID, filePath: filePath, line: line, column: column)
      }
    )
  }

  /// Makes a test store for a reducer that needs no environment.
  public convenience init(
    initialState: State,
    reducer: Reducer<State, Action, Void>,
    clock: any Clock<Duration> = ContinuousClock(),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(
      initialState: initialState, reducer: reducer, environment: (), clock: clock,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  deinit {
    guard exhaustivity == .on else {
      store.cancelEffects()
      return
    }
    let running = hasFinished ? 0 : store.runningEffectCount
    if running > 0 {
      origin.report(
        """
        \(running) effect(s) still running when the test store was released. Receive their \
        actions, advance the clock until they finish, or cancel them, then call finish().
        """)
    }
    let unreceived = log.received
    if !unreceived.isEmpty {
      origin.report(Self.describeUnreceived(unreceived))
    }
    store.cancelEffects()
  }

  /// Sends `action` and checks that the state changed exactly as `update` describes.
  ///
  /// - Parameters:
  ///   - action: what the user (or the test) does.
  ///   - update: turns the state before the action into the state you expect after it.
  ///     Leave it out to assert that the action changes nothing.
  ///   - fileID: where a failure is reported; leave the default (the caller's file).
  ///   - filePath: the caller's file path, for the same report.
  ///   - line: the caller's line.
  ///   - column: the caller's column.
  /// - Returns: the action's effects, to `cancel()` or `finish()` (see `StoreTask` in the core).
  @discardableResult
  public func send(
    _ action: Action,
    assert update: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> StoreTask {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let reduction = await reduceSent(action, at: location) else { return StoreTask() }
    if let refusal = reduction.refusal {
      location.report("The action was refused: \(refusal.reason)\n\n\(dumped(action))")
    }
    expect(state: reduction.state, after: update, at: location)
    return reduction.task
  }

  /// Sends `action` and checks that the reducer refuses it, with exactly `reason`, leaving the
  /// state untouched.
  public func send(
    _ action: Action,
    refusedWith reason: String,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let reduction = await reduceSent(action, at: location) else { return }
    switch reduction.refusal {
    case nil:
      location.report("Expected the action to be refused (\(reason)), but it was applied.")
    case let refusal? where refusal.reason != reason:
      location.report(
        "The action was refused for another reason.\n\n  Expected: \(reason)\n  Actual:   \(refusal.reason)")
    default:
      break
    }
    expect(state: reduction.state, after: nil, at: location)
  }

  /// Accepts the next action an effect sent, which must equal `expected`, and checks the state
  /// after it. Waits up to `timeout` for it to arrive.
  public func receive(
    _ expected: Action,
    timeout: Duration? = nil,
    assert update: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: Equatable {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    await receive(
      matching: { $0 == expected }, describing: { Self.unexpected($0, expected: expected) },
      expecting: dumped(expected), timeout: timeout, update: update, at: location)
  }

  /// Accepts the next action an effect or a reduction fed back, which must equal `expected`, and
  /// checks that the reducer refused it with exactly `reason`, leaving the state as it was: a
  /// refusal in the middle of a chain of `.send`s undoes only that action.
  ///
  /// ```swift
  /// await store.send(.overdraw) { $0.pending = true }
  /// await store.receive(.take(11), refusedWith: "the row holds only 10")
  /// ```
  public func receive(
    _ expected: Action,
    refusedWith reason: String,
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: Equatable {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    await receive(
      matching: { $0 == expected }, describing: { Self.unexpected($0, expected: expected) },
      expecting: dumped(expected), timeout: timeout, update: nil, refusedWith: reason, at: location)
  }

  /// Accepts the next action an effect sent, which must match `predicate`, and checks the state
  /// after it.
  public func receive(
    where predicate: @escaping (Action) -> Bool,
    timeout: Duration? = nil,
    assert update: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    await receive(
      matching: predicate, describing: { "Received an action that does not match:\n\n\(dumped($0))" },
      expecting: "an action matching the predicate", timeout: timeout, update: update, at: location)
  }

  /// Waits for every effect to finish and checks that every action they sent was received.
  ///
  /// Effects that wait on a test clock finish only when the clock is advanced; one that is still
  /// running after `timeout` fails the test (in ``Exhaustivity/off`` mode it is cancelled).
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let finished = await waitUntil(timeout: timeout ?? self.timeout) {
      self.store.runningEffectCount == 0
    }
    if exhaustivity == .on {
      if !finished {
        location.report(
          """
          \(store.runningEffectCount) effect(s) still running after \(timeout ?? self.timeout). \
          Advance the test clock, receive their actions, or cancel them.
          """)
      }
      let unreceived = log.received
      if !unreceived.isEmpty { location.report(Self.describeUnreceived(unreceived)) }
    }
    // Reported once, here, not again when the store is released.
    skipReceivedActions()
    store.cancelEffects()
    hasFinished = true
  }

  /// Drops every received action not yet asserted; for tests that do not care about them.
  public func skipReceivedActions() {
    let pending = log.received.count
    log.removeReceived(first: pending)
  }

  // MARK: - Steps

  private struct SentReduction {
    let state: State
    let refusal: Refusal?
    let task: StoreTask
  }

  private func reduceSent(_ action: Action, at location: SourceLocation) async -> SentReduction? {
    hasFinished = false
    let unreceived = log.received
    if !unreceived.isEmpty {
      if exhaustivity == .on {
        location.report(
          "Must handle \(unreceived.count) received action(s) before sending an action.\n\n"
            + Self.describeUnreceived(unreceived))
      }
      log.removeReceived(first: unreceived.count)
      if let last = unreceived.last { state = last.state }
    }
    let task = await store.send(.sent(action))
    guard let reduction = log.takeSent() else {
      location.report("The store did not reduce the action.")
      return nil
    }
    return SentReduction(state: reduction.state, refusal: reduction.refusal, task: task)
  }

  private func receive(
    matching predicate: (Action) -> Bool,
    describing mismatch: (Action) -> String,
    expecting expected: String,
    timeout: Duration?,
    update: ((inout State) throws -> Void)?,
    refusedWith expectedRefusal: String? = nil,
    at location: SourceLocation
  ) async {
    let arrived = await waitUntil(timeout: timeout ?? self.timeout) {
      self.exhaustivity == .on
        ? !self.log.received.isEmpty
        : self.log.received.contains { predicate($0.action) }
    }
    guard arrived else {
      location.report("Expected to receive an action, but none arrived in time:\n\n\(expected)")
      return
    }
    let pending = log.received
    let index = exhaustivity == .on ? 0 : pending.firstIndex { predicate($0.action) }!
    let reduction = pending[index]
    log.removeReceived(first: index + 1)
    if index > 0 { state = pending[index - 1].state }
    if !predicate(reduction.action) {
      location.report(mismatch(reduction.action))
    }
    switch (reduction.refusal, expectedRefusal) {
    case (nil, nil):
      break
    case let (refusal?, nil):
      location.report("The received action was refused: \(refusal.reason)\n\n\(dumped(reduction.action))")
    case let (nil, expected?):
      location.report("Expected the received action to be refused (\(expected)), but it was applied.")
    case let (refusal?, expected?) where refusal.reason != expected:
      location.report(
        "The received action was refused for another reason.\n\n  Expected: \(expected)\n  Actual:   \(refusal.reason)")
    default:
      break
    }
    expect(state: reduction.state, after: update, at: location)
  }

  /// What a test is told when it received `actual` where it expected `expected`.
  private static func unexpected(_ actual: Action, expected: Action) -> String {
    "Received an unexpected action:\n\n" + (diff(expected, actual, format: .proportional) ?? dumped(actual))
      + "\n\n(Expected: −, Received: +)"
  }

  /// Compares the state the store reached with the one the test describes, and adopts it.
  private func expect(
    state actual: State, after update: ((inout State) throws -> Void)?, at location: SourceLocation
  ) {
    // Non-exhaustive: apply the assertion to the actual state, so only what it sets is checked.
    var expected = exhaustivity == .on ? state : actual
    do {
      try update?(&expected)
    } catch {
      location.report("The state assertion threw an error: \(error)")
    }
    if expected != actual {
      let difference = diff(expected, actual, format: .proportional) ?? "(the states differ)"
      let headline =
        update == nil
        ? "State was not expected to change, but a change occurred:"
        : "A state change does not match expectation:"
      location.report(
        """
        \(headline)

        \(difference.indented(by: 2))

        (Expected: −, Actual: +)
        """)
    }
    state = actual
  }

  private func waitUntil(timeout: Duration, _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while !condition() {
      for _ in 0..<10 { await Task.yield() }
      if condition() { return true }
      if clock.now >= deadline { return false }
      try? await Task.sleep(for: .milliseconds(1))
    }
    return true
  }

  private static func describeUnreceived(_ unreceived: [ObservedReduction<State, Action>]) -> String {
    "The store received \(unreceived.count) action(s) that the test did not assert:\n\n"
      + unreceived.map { dumped($0.action).indented(by: 2) }.joined(separator: "\n")
  }
}

/// Where in the test an assertion was written.
struct SourceLocation {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt

  func report(_ message: String) {
    reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

func dumped(_ value: Any) -> String {
  var text = ""
  customDump(value, to: &text)
  return text
}

extension String {
  func indented(by count: Int) -> String {
    let padding = String(repeating: " ", count: count)
    return split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : padding + $0 }
      .joined(separator: "\n")
  }
}
