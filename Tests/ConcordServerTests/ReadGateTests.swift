import PropertyRandom
import Testing

@testable import ConcordServer

/// The daemon's backpressure on one window, told events alone: lines arriving, the channel
/// asking to read, answers written, the window's room changing (the writer share moves with the
/// other windows, without telling the gate), the input ending.
@Suite struct ReadGateTests {
  /// A window and the handler's glue around the gate, as `ConnectionHandler` has it: each line is
  /// an action that stays unanswered until an answer is written.
  struct Window {
    var gate = ReadGate<Int>()
    var room: Int
    var unanswered = 0
    var handled: [Int] = []
    var reads = 0
    var violations: [String] = []
    var saturated: Bool { unanswered >= room }

    mutating func handle(_ line: Int) {
      if saturated { violations.append("line \(line) handled while saturated") }
      handled.append(line)
      unanswered += 1
    }

    mutating func arrive(_ line: Int) {
      guard !gate.inputEnded else { return }
      if let line = gate.lineRead(line, saturated: saturated) { handle(line) }
    }

    mutating func channelAsksToRead() {
      if gate.readRequested(saturated: saturated) { read() }
    }

    mutating func read() {
      if saturated || !gate.held.isEmpty { violations.append("read while saturated or holding") }
      reads += 1
    }

    /// What the handler does after every write turn.
    mutating func answersWritten(_ count: Int) {
      unanswered -= min(count, unanswered)
      guard gate.isPaused else { return }
      while let line = gate.nextHeld(saturated: saturated) { handle(line) }
      if gate.resumeReading(saturated: saturated) { read() }
    }
  }

  @Test func aSaturatedWindowIsHeldThenTakenUpInOrderAsAnswersAreWritten() {
    var window = Window(room: 2)
    for line in 1...4 { window.arrive(line) }
    window.channelAsksToRead()
    #expect(window.handled == [1, 2] && window.gate.held.count == 2 && window.gate.readDeferred && window.reads == 0)
    window.answersWritten(1)
    #expect(window.handled == [1, 2, 3] && window.gate.isPaused)
    // Room for the last held line and one more: the deferred read is made.
    window.answersWritten(2)
    #expect(window.handled == [1, 2, 3, 4] && window.reads == 1 && !window.gate.isPaused)
  }

  @Test func afterItsInputEndsNothingMoreIsTakenAndItClosesOnceAnswered() {
    var window = Window(room: 1)
    window.arrive(1)
    window.arrive(2)
    window.gate.endInput()
    window.arrive(3)
    #expect(!window.gate.mayClose(queueEmpty: true))
    window.answersWritten(1)
    #expect(window.handled == [1, 2] && window.gate.mayClose(queueEmpty: true) && !window.gate.mayClose(queueEmpty: false))
  }

  /// 500 random windows against the promise: every line taken is handled once, in the order it
  /// came, never while the window is saturated; the channel reads only with room and nothing
  /// held; and once the window has room, nothing is held and no read waits.
  @Test func theGateKeepsItsPromiseWhateverTheWindowDoes() {
    var held = 0
    var deferred = 0
    for seed in PropertyRandom.seeds(from: 0x6A7E_0000, count: 500) {
      var random = PropertyRandom(seed: seed)
      var window = Window(room: random.int(1...4))
      var sent: [Int] = []
      for step in 0..<80 {
        switch random.int(0...9) {
        case 0...3:
          let line = sent.count + 1
          if !window.gate.inputEnded { sent.append(line) }
          window.arrive(line)
        case 4...5:
          window.channelAsksToRead()
        case 6...7:
          window.answersWritten(random.int(0...3))
        case 8:
          // The writer share moves: the gate is not told until the next write turn.
          window.room = random.int(1...4)
        default:
          if random.chance(10) { window.gate.endInput() }
        }
        if window.gate.held.count > 0 { held += 1 }
        if window.gate.readDeferred { deferred += 1 }
        #expect(window.violations.isEmpty, "seed \(seed), step \(step): \(window.violations)")
        #expect(window.handled == Array(sent.prefix(window.handled.count)), "seed \(seed), step \(step): out of order")
        #expect(window.handled.count + window.gate.held.count == sent.count, "seed \(seed), step \(step): a line lost")
        #expect(window.gate.isPaused == (window.gate.readDeferred || !window.gate.held.isEmpty))
      }
      // Every answer written: nothing may be left held or unread.
      for _ in 0...sent.count where window.gate.isPaused || window.unanswered > 0 {
        window.answersWritten(window.unanswered)
      }
      #expect(window.handled == sent && !window.gate.readDeferred, "seed \(seed): left held or unread")
    }
    if PropertyRandom.replayed == nil { #expect(held > 1_000 && deferred > 1_000, "\(held) steps holding, \(deferred) deferring") }
  }
}
