import ConcordLog
import ConcordPlatform
import ConcordWire
import DaemonDriving
import Foundation
import Testing

@testable import ConcordClient

/// A connection that lasts sees the log grow, and so does the home it syncs: syncing again and
/// again over one connection (as a window does with every action) is not a rollback.
@Suite(.serialized) struct OutboxSyncConnectionTests {
  @Test func manySyncsOverOneConnectionSendEveryAction() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    let outbox = try Outbox.open(home: ConcordHome(daemon.home))
    let connection = try ClientConnection(socket: ConcordHome(daemon.home).socket, presence: false)
    defer { connection.close() }
    var attached = Set<String>()
    for round in 1...5 {
      try outbox.enqueue(scope: "counter", action: ["increment": [:]])
      let report = try OutboxSync.run(outbox, over: connection, attached: &attached)
      #expect(report.divergence == nil, "round \(round): \(String(describing: report.divergence))")
      #expect(report.results.count == 1, "round \(round)")
    }
    #expect(try outbox.queued().isEmpty)
    #expect(connection.newestSeq > connection.welcome.seq)
  }

  /// A window connects and is welcomed at seq N; before it compares, another window of the home
  /// is answered with N+1 and witnesses it. The log did not go back: what the home had witnessed
  /// before the connection is what the welcome answers.
  @Test func anEntryWitnessedByAnotherWindowAfterTheWelcomeIsNoRollback() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    let home = ConcordHome(daemon.home)
    let outbox = try Outbox.open(home: home)
    _ = try OutboxSync.run(outbox, over: ClientConnection(socket: home.socket, presence: false))
    let before = try outbox.witnessSnapshot()
    let late = try ClientConnection(socket: home.socket, presence: false)
    defer { late.close() }
    // Another window of the home, answered after the late one's welcome.
    let other = try ClientConnection(socket: home.socket, presence: false)
    try outbox.enqueue(scope: "counter", action: ["increment": [:]])
    _ = try OutboxSync.run(outbox, over: other)
    other.close()
    #expect(try outbox.witnessed()?.seq ?? 0 > late.welcome.seq)

    let report = try OutboxSync.run(outbox, over: late, witnessedBefore: before)
    #expect(report.divergence == nil, "\(String(describing: report.divergence))")
  }
}
