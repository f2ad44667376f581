import ConcordLog
import ConcordWire
import Foundation
import Testing

@testable import ConcordClient

/// A connection that lasts sees the log grow, and so does the home it syncs: syncing again and
/// again over one connection (as a window does with every action) is not a rollback.
@Suite(.serialized) struct OutboxSyncConnectionTests {
  @Test func manySyncsOverOneConnectionSendEveryAction() throws {
    let daemon = try DaemonProcess().start()
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
}
