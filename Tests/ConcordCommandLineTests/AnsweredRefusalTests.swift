import ConcordClient
import ConcordPlatform
import DaemonDriving
import Foundation
import Testing

/// A refusal a person was told of does not linger: `send` prints its own refusal and exits 1,
/// `outbox sync` prints every answer; neither is kept for the home's windows as "refused on
/// replay", which is for what was refused while nobody watched.
@Suite(.serialized) struct AnsweredRefusalTests {
  @Test func aRefusalSaidOnTheCommandLineIsNotKeptForTheWindows() throws {
    let daemon = try DaemonUnderTest(app: "workspace").start()
    defer {
      _ = daemon.terminate()
      daemon.removeHome()
    }
    let sent = try ConcordCLI.run(["send", "board", "move 999 done"], home: daemon.home, app: "workspace")
    #expect(sent.status == 1 && sent.error.contains("there is no card #999"), "\(sent.error)")
    let outbox = try Outbox.open(home: ConcordHome(daemon.home))
    #expect(try outbox.refusedOnResend().isEmpty, "a refusal already answered is kept as unseen")

    // Queued while the daemon is away, then synced by hand: each answer is printed.
    _ = daemon.terminate()
    let queued = try ConcordCLI.run(["send", "board", "move 998 done"], home: daemon.home, app: "workspace")
    #expect(queued.status == 3, "\(queued.error)")
    let restarted = try DaemonUnderTest(home: daemon.home, app: "workspace").start()
    defer { _ = restarted.terminate() }
    let synced = try ConcordCLI.run(["outbox", "sync"], home: daemon.home, app: "workspace")
    #expect(synced.output.contains("there is no card #998"), "\(synced.output)")
    #expect(try outbox.refusedOnResend().isEmpty, "a refusal printed by outbox sync is kept as unseen")
  }
}
