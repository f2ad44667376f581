import ConcordWire
import Foundation
import GRDB
import Testing

@testable import ConcordClient

/// An action queued offline is kept through a power loss, not only through a crash.
@Suite struct OutboxDurabilityTests {
  /// GRDB opens a WAL database with synchronous = NORMAL, which syncs a commit only at the next
  /// WAL checkpoint. An enqueue commits at FULL, even right after a removal that was not synced
  /// (a removal, or a state remembered, that a power cut takes back costs nothing).
  @Test func aQueuedActionIsSyncedBeforeEnqueueReturnsEvenAfterAnUnsyncedRemoval() throws {
    let home = DaemonProcess.makeHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let outbox = try Outbox.open(home: ConcordHome(home))
    let queued = try outbox.enqueue(scope: "counter", action: .object(["increment": .object([:])]))
    try outbox.remove(cseq: queued.cseq)
    #expect(try level(of: outbox) == 1)
    try outbox.remember(SeenState(scope: "counter", logID: "log", seq: 1, state: .number(1)))
    #expect(try outbox.queued().isEmpty)
    #expect(try outbox.lastSeen("counter")?.seq == 1)
    try outbox.enqueue(scope: "counter", action: .object(["increment": .object([:])]))
    #expect(try level(of: outbox) == 2)
    #expect(try outbox.queued().count == 1)
  }

  /// The `synchronous` level the outbox's connection was last left at (2 FULL, 1 NORMAL).
  private func level(of outbox: Outbox) throws -> Int? {
    try outbox.database.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
  }
}
