import Testing

@testable import ConcordServer

/// The host's life as values: it goes from accepting to draining to stopped, never back, and
/// keeps the first reason it stopped for.
@Suite struct HostLifecycleTests {
  @Test func aCleanShutdownDrainsThenStops() {
    var lifecycle = HostLifecycle()
    #expect(lifecycle.takesConnectionActions && lifecycle.reduces)
    lifecycle.drain()
    #expect(lifecycle.state == .draining)
    #expect(!lifecycle.takesConnectionActions && lifecycle.reduces)
    lifecycle.stop(because: nil)
    #expect(lifecycle.state == .stopped(reason: nil))
    #expect(!lifecycle.takesConnectionActions && !lifecycle.reduces)
  }

  @Test func aFailedLogStopsAtOnceAndNothingMovesItBack() {
    var lifecycle = HostLifecycle()
    lifecycle.stop(because: "the log could not be written: disk full")
    lifecycle.drain()
    lifecycle.stop(because: nil)
    lifecycle.stop(because: "a later failure")
    #expect(lifecycle.state == .stopped(reason: "the log could not be written: disk full"))
    #expect(!lifecycle.reduces)
  }

  @Test func aFailureWhileDrainingIsKept() {
    var lifecycle = HostLifecycle()
    lifecycle.drain()
    lifecycle.stop(because: "entry 12 was reduced twice")
    lifecycle.stop(because: nil)
    #expect(lifecycle.state == .stopped(reason: "entry 12 was reduced twice"))
  }
}
