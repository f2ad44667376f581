import Foundation
import Testing

@testable import ConcordClient

/// A window's link to the daemon, told events alone on a clock of the test's: when it tries
/// again, how long it waits after each failure, and what holds it back.
@Suite struct SessionLinkTests {
  let start = Date(timeIntervalSince1970: 1_800_000_000)

  @Test func theFirstTryIsAtOnceAndEachFailureWaitsTwiceAsLongUpToTwoSeconds() {
    var link = SessionLink<String, Int>()
    #expect(link.isDue(at: start))
    var now = start
    var waits: [TimeInterval] = []
    for _ in 0..<6 {
      link.lost(at: now, jitter: 1)
      let retryAt = link.retryAt!
      waits.append(retryAt.timeIntervalSince(now))
      #expect(!link.isDue(at: retryAt.addingTimeInterval(-0.001)))
      #expect(link.isDue(at: retryAt))
      now = retryAt
    }
    #expect(waits == [0.25, 0.5, 1, 2, 2, 2])
  }

  @Test func jitterTakesAPartOfTheWaitAndAConnectionStartsTheWaitsAgain() {
    var link = SessionLink<String, Int>()
    link.lost(at: start, jitter: 0.5)
    #expect(link.retryAt == start.addingTimeInterval(0.125))
    link.lost(at: start, jitter: 1)
    #expect(link.retryAt == start.addingTimeInterval(0.5))
    link.connected("the daemon")
    #expect(link.connection == "the daemon")
    #expect(link.retryAt == nil)
    #expect(!link.isDue(at: start.addingTimeInterval(3600)), "connected: nothing to try")
    link.lost(at: start, jitter: 1)
    #expect(link.retryAt == start.addingTimeInterval(0.25))
  }

  @Test func aConnectionBeingMadeIsLookedAtEveryTickAndIsNotARetry() {
    var link = SessionLink<String, Int>()
    link.connecting(7)
    #expect(link.attempt == 7)
    #expect(link.isDue(at: start))
    #expect(link.retryAt == nil)
    #expect(link.connection == nil)
    link.lost(at: start, jitter: 1)
    #expect(link.attempt == nil)
    #expect(link.retryAt == start.addingTimeInterval(0.25))
  }

  @Test func aLogThatWentBackHoldsTheWindowAwayForFiveSecondsAtATime() {
    var link = SessionLink<String, Int>()
    link.connected("the daemon")
    link.holdBack(at: start)
    #expect(link.connection == nil)
    #expect(link.retryAt == start.addingTimeInterval(5))
    #expect(!link.isDue(at: start.addingTimeInterval(4.9)))
    #expect(link.isDue(at: start.addingTimeInterval(5)))
  }

  @Test func aLinkLetGoNeverTriesAgain() {
    var link = SessionLink<String, Int>()
    link.lost(at: start, jitter: 1)
    link.close()
    #expect(link.retryAt == nil)
    #expect(!link.isDue(at: .distantFuture))
  }
}

/// Waiting on the outside world, on a clock that moves only when slept on.
@Suite struct WaitingTests {
  /// A clock that moves only when it is slept on, and counts the sleeps.
  final class TestClock: WaitingClock {
    var now: Double = 100
    var sleeps: [Double] = []
    func sleep(_ seconds: Double) {
      sleeps.append(seconds)
      now += seconds
    }
  }

  @Test func aValueEndsTheWaitAtOnce() {
    let clock = TestClock()
    var tries = 0
    let value = Waiting.until(1, every: 0.1, clock: clock) { () -> Int? in
      tries += 1
      return tries == 3 ? 42 : nil
    }
    #expect(value == 42)
    #expect(clock.sleeps == [0.1, 0.1])
  }

  @Test func timeRunsOutAfterTheLastTryAtTheDeadline() {
    let clock = TestClock()
    var tries = 0
    let value = Waiting.until(0.25, every: 0.1, clock: clock) { () -> Int? in
      tries += 1
      return nil
    }
    #expect(value == nil)
    #expect(tries == 4, "at 0, 0.1, 0.2 and at the deadline")
    #expect(abs(clock.sleeps.reduce(0, +) - 0.25) < 1e-9, "never past the deadline")
  }

  @Test func anErrorEndsTheWaitAndIsThrown() {
    struct Gone: Error {}
    let clock = TestClock()
    #expect(throws: Gone.self) {
      try Waiting.until(10, every: 1, clock: clock) { () throws(Gone) -> Int? in throw Gone() }
    }
    #expect(clock.sleeps.isEmpty)
  }
}
