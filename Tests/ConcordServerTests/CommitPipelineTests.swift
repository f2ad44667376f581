import Testing

@testable import ConcordServer

/// The host's group commit, told events alone: one batch in flight at a time, one snapshot at a
/// time, a shutdown that waits for both and no longer, and a failed log that stops everything.
@Suite struct CommitPipelineTests {
  @Test func oneBatchIsInFlightAtATimeAndWhatWaitsGoesNext() {
    var pipeline = CommitPipeline()
    #expect(pipeline.queued() == .startCommit)
    #expect(pipeline.commit == .committing)
    #expect(pipeline.queued() == nil, "what is reduced meanwhile waits for the next batch")
    #expect(pipeline.committed(morePending: true, snapshotDue: false) == [.startCommit])
    #expect(pipeline.committed(morePending: false, snapshotDue: false) == [])
    #expect(pipeline.commit == .idle)
    #expect(pipeline.queued() == .startCommit)
  }

  @Test func aDueSnapshotIsTakenOnceAtATime() {
    var pipeline = CommitPipeline()
    _ = pipeline.queued()
    #expect(pipeline.committed(morePending: true, snapshotDue: true) == [.takeSnapshot, .startCommit])
    #expect(pipeline.snapshot == .inFlight)
    #expect(pipeline.committed(morePending: false, snapshotDue: true) == [], "one snapshot at a time")
    #expect(pipeline.snapshotDone() == nil)
    _ = pipeline.queued()
    #expect(pipeline.committed(morePending: false, snapshotDue: true) == [.takeSnapshot])
  }

  @Test func aShutdownWithNothingInFlightGoesOnAtOnce() {
    var pipeline = CommitPipeline()
    #expect(pipeline.drain(pending: false) == [.finishDrain])
    #expect(pipeline.lifecycle.state == .stopped(reason: nil))
    #expect(pipeline.queued() == nil, "a stopped host commits nothing")
  }

  @Test func aShutdownCommitsWhatWaitsAndWaitsForTheBatchAndTheSnapshotInFlight() {
    var pipeline = CommitPipeline()
    _ = pipeline.queued()
    #expect(pipeline.committed(morePending: false, snapshotDue: true) == [.takeSnapshot])
    _ = pipeline.queued()
    // SIGTERM: a batch and a snapshot are in flight, and more was reduced.
    #expect(pipeline.drain(pending: true) == [])
    #expect(!pipeline.lifecycle.takesConnectionActions)
    #expect(pipeline.lifecycle.reduces, "what was taken is still committed")
    #expect(pipeline.committed(morePending: true, snapshotDue: false) == [.startCommit])
    #expect(pipeline.committed(morePending: false, snapshotDue: false) == [], "the snapshot is still being stored")
    #expect(pipeline.snapshotDone() == .finishDrain)
    #expect(pipeline.lifecycle.state == .stopped(reason: nil))
  }

  @Test func aShutdownWithActionsWaitingAndNoCommitStartsOne() {
    var pipeline = CommitPipeline()
    #expect(pipeline.drain(pending: true) == [.startCommit])
    #expect(pipeline.committed(morePending: false, snapshotDue: false) == [.finishDrain])
  }

  @Test func aFailedLogStopsEverythingAndReleasesAWaitingShutdown() {
    var idle = CommitPipeline()
    _ = idle.queued()
    #expect(idle.fail(because: "the disk is full") == nil, "no shutdown waits")
    #expect(idle.lifecycle.state == .stopped(reason: "the disk is full"))
    #expect(idle.queued() == nil)
    #expect(idle.committed(morePending: true, snapshotDue: true) == [], "a late callback starts nothing")

    var draining = CommitPipeline()
    _ = draining.queued()
    #expect(draining.drain(pending: false) == [])
    #expect(draining.fail(because: "the disk is full") == .finishDrain)
    #expect(draining.lifecycle.state == .stopped(reason: "the disk is full"), "the first reason is kept")
    #expect(draining.snapshotDone() == nil, "a shutdown is released once")
  }

  @Test func theCheckpointFilesHealthIsNewsOnlyWhenItChanges() {
    var pipeline = CommitPipeline()
    #expect(pipeline.checkpointFile(failing: false) == nil)
    #expect(pipeline.checkpointFile(failing: true) == .failing)
    #expect(pipeline.checkpointFile(failing: true) == nil)
    #expect(pipeline.checkpointFile(failing: false) == .written)
    #expect(pipeline.checkpointFile(failing: false) == nil)
  }
}
