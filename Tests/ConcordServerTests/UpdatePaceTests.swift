import Synchronization
import Testing

@testable import ConcordServer

/// A window's update pace, told times alone: a change sooner than the interval is held, one
/// release is asked for whichever scope asks first, and it is scheduled once.
@Suite struct UpdatePaceTests {
  @Test func withoutAPaceEveryChangeGoesAsItComes() {
    var pace = UpdatePace()
    let may = pace.mayUpdate(heldUntil: 0, now: 0)
    let release = pace.takeRelease()
    #expect(!pace.isPaced && may && release == nil)
  }

  @Test func aChangeSoonerThanTheIntervalIsHeldAndOneReleaseIsScheduledForWhenItMayGo() {
    let scheduled = Mutex<[UInt64]>([])
    var pace = UpdatePace(every: 20) { delay in scheduled.withLock { $0.append(delay) } }
    let heldUntil = pace.nextUpdate(after: 100)
    #expect(heldUntil == 120)
    // At the end of the interval; sooner; another scope, held longer, sooner too.
    let asked = [(heldUntil, 120), (heldUntil, 105), (130, 105)].map { pace.mayUpdate(heldUntil: $0.0, now: $0.1) }
    #expect(asked == [true, false, false])
    let release = pace.takeRelease()
    release?()
    #expect(scheduled.withLock { $0 } == [15], "one release, for the first held scope")
    let again = pace.takeRelease()
    #expect(again == nil, "scheduled once")
    let meanwhile = pace.mayUpdate(heldUntil: heldUntil, now: 110)
    let another = pace.takeRelease()
    #expect(!meanwhile && another == nil, "while one is scheduled, no other is asked for")
    pace.released()
    let after = pace.mayUpdate(heldUntil: 130, now: 125)
    pace.takeRelease()?()
    #expect(!after)
    #expect(scheduled.withLock { $0 } == [15, 5])
  }
}
