import ConcordWire
import Foundation
import GRDB
import Testing

@testable import ConcordClient

/// An action queued offline is kept through a power loss, not only through a crash.
@Suite struct OutboxDurabilityTests {
  @Test func aQueuedActionIsSyncedToDiskBeforeEnqueueReturns() throws {
    let home = DaemonProcess.makeHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let outbox = try Outbox.open(home: ConcordHome(home))
    // GRDB opens a WAL database with synchronous = NORMAL, which syncs a commit only at the next
    // WAL checkpoint; the outbox sets FULL on its connection.
    let level = try outbox.database.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
    #expect(level == 2)
    try outbox.enqueue(scope: "counter", action: .object(["increment": .object([:])]))
    #expect(try outbox.queued().count == 1)
  }

  @Test func removingAnAnsweredActionSkipsTheSyncButTheNextEnqueueIsSyncedAgain() throws {
    let home = DaemonProcess.makeHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let outbox = try Outbox.open(home: ConcordHome(home))
    let queued = try outbox.enqueue(scope: "counter", action: .object(["increment": .object([:])]))
    // A removal (or a state remembered) that a power cut takes back costs nothing, so its
    // commit is not synced; the connection must be at FULL again for what comes next.
    try outbox.remove(cseq: queued.cseq)
    try outbox.remember(SeenState(scope: "counter", logID: "log", seq: 1, state: .number(1)))
    #expect(try outbox.queued().isEmpty)
    #expect(try outbox.lastSeen("counter")?.seq == 1)
    let level = try outbox.database.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
    #expect(level == 2)
  }
}
