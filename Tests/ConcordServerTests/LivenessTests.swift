import PropertyRandom
import Testing

@testable import ConcordServer

/// The daemon's judgement of a window's life, in test seconds: no clock, no socket.
@Suite struct LivenessTests {
  static let second: UInt64 = 1_000_000_000
  static let timing = Liveness.Timing()  // 30 s each

  @Test func aQuietWindowIsPingedThenDroppedWhenItDoesNotAnswer() {
    var liveness = Liveness(at: 0)
    #expect(liveness.verdict(at: 30 * Self.second, timing: Self.timing) == .alive)
    #expect(liveness.verdict(at: 31 * Self.second, timing: Self.timing) == .ping)
    // Pinged once: the next checks wait for the answer.
    #expect(liveness.verdict(at: 40 * Self.second, timing: Self.timing) == .alive)
    #expect(liveness.verdict(at: 61 * Self.second, timing: Self.timing) == .alive)
    #expect(liveness.verdict(at: 62 * Self.second, timing: Self.timing) == .gone)
  }

  @Test func anAnsweredPingKeepsTheWindow() {
    var liveness = Liveness(at: 0)
    #expect(liveness.verdict(at: 31 * Self.second, timing: Self.timing) == .ping)
    liveness.heard(at: 50 * Self.second)
    #expect(liveness.verdict(at: 70 * Self.second, timing: Self.timing) == .alive)
    #expect(liveness.verdict(at: 81 * Self.second, timing: Self.timing) == .ping)
  }

  @Test func aWindowWhoseInputIsPausedIsNeitherPingedNorDroppedAsDead() {
    var liveness = Liveness(at: 0)
    #expect(liveness.verdict(at: 31 * Self.second, timing: Self.timing) == .ping)
    // Its pong waits behind the lines the daemon holds back.
    liveness.setInputPaused(true, at: 32 * Self.second)
    #expect(liveness.verdict(at: 500 * Self.second, timing: Self.timing) == .alive)
    // Resuming counts as hearing it.
    liveness.setInputPaused(false, at: 501 * Self.second)
    #expect(liveness.verdict(at: 530 * Self.second, timing: Self.timing) == .alive)
    #expect(liveness.verdict(at: 532 * Self.second, timing: Self.timing) == .ping)
  }

  @Test func aWindowThatReadsNothingIsStuckFromTheFirstMomentItStopped() {
    var liveness = Liveness(at: 0)
    liveness.setBlocked(true, at: 1 * Self.second)
    // Told again at every change of its scopes: the first moment counts.
    liveness.setBlocked(true, at: 20 * Self.second)
    liveness.heard(at: 25 * Self.second)
    #expect(liveness.verdict(at: 31 * Self.second, timing: Self.timing) == .alive)
    #expect(liveness.verdict(at: 32 * Self.second, timing: Self.timing) == .stuck)
    // Even while its input is paused: it does not read its answers.
    liveness.setInputPaused(true, at: 32 * Self.second)
    #expect(liveness.verdict(at: 33 * Self.second, timing: Self.timing) == .stuck)
    // It read something: the clock starts again.
    liveness.setBlocked(false, at: 33 * Self.second)
    #expect(liveness.verdict(at: 60 * Self.second, timing: Self.timing) == .alive)
  }

  /// Random lives of windows, each verdict checked against the promise restated from the events
  /// alone (not from the machine's fields): pinged only after a quiet interval with no ping
  /// outstanding and input not paused; gone only when a ping went unanswered for the timeout;
  /// stuck exactly when the socket has taken nothing since a moment past the timeout.
  @Test func everyVerdictIsWhatTheWindowsHistorySays() {
    var verdicts: [Liveness.Verdict: Int] = [:]
    for seed in PropertyRandom.seeds(from: 0x11FE_0000, count: 500) {
      var random = PropertyRandom(seed: seed)
      let timing = Liveness.Timing(
        pingInterval: .seconds(random.int(1...5)), pingTimeout: .seconds(random.int(1...5)),
        stuckTimeout: .seconds(random.int(1...5)))
      var liveness = Liveness(at: 0)
      var now: UInt64 = 0
      var lastHeard: UInt64 = 0
      var pingSent: UInt64?
      var paused = false
      var blockedSince: UInt64?
      for step in 0..<60 {
        now += UInt64(random.int(0...1_500)) * 1_000_000
        switch random.int(0...9) {
        case 0...2:
          liveness.heard(at: now)
          (lastHeard, pingSent) = (now, nil)
        case 3:
          let pause = random.chance(50)
          liveness.setInputPaused(pause, at: now)
          if paused && !pause { (lastHeard, pingSent) = (now, nil) }
          paused = pause
        case 4:
          let blocked = random.chance(60)
          liveness.setBlocked(blocked, at: now)
          blockedSince = blocked ? (blockedSince ?? now) : nil
        default:
          let verdict = liveness.verdict(at: now, timing: timing)
          verdicts[verdict, default: 0] += 1
          let expected: Liveness.Verdict
          if let since = blockedSince, now - since > timing.stuckTimeout.nanoseconds {
            expected = .stuck
          } else if paused {
            expected = .alive
          } else if let sent = pingSent {
            expected = now - sent > timing.pingTimeout.nanoseconds ? .gone : .alive
          } else if now - lastHeard > timing.pingInterval.nanoseconds {
            expected = .ping
            pingSent = now
          } else {
            expected = .alive
          }
          #expect(verdict == expected, "seed \(seed), step \(step) at \(now / 1_000_000) ms")
        }
      }
    }
    // Every verdict was reached.
    if PropertyRandom.replayed == nil {
      #expect([Liveness.Verdict.alive, .ping, .stuck, .gone].allSatisfy { verdicts[$0, default: 0] > 50 }, "\(verdicts)")
    }
  }
}
