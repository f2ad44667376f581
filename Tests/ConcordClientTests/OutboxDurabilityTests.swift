import ConcordLog
import ConcordPlatform
import ConcordWire
import Foundation
import GRDB
import Testing

@testable import ConcordClient

#if canImport(Glibc)
import Glibc
#endif

/// An action queued offline is kept through a power loss, not only through a crash.
@Suite struct OutboxDurabilityTests {
  /// GRDB opens a WAL database with synchronous = NORMAL, which syncs a commit only at the next
  /// WAL checkpoint. An enqueue commits at FULL, even right after a removal that was not synced
  /// (a removal, or a state remembered, that a power cut takes back costs nothing).
  @Test func aQueuedActionIsSyncedBeforeEnqueueReturnsEvenAfterAnUnsyncedRemoval() throws {
    let home = TemporaryHome.make()
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

/// The outbox's files are the person's alone: a group that `concordd --allow-group` lets pass
/// through the home must not read the queued actions' `-wal` either.
@Suite struct OutboxPrivacyTests {
  @Test func aNewOutboxAndItsWALAndSHMFilesAre0600UnderTheUsualUmask() throws {
    let home = TemporaryHome.make()
    defer { try? FileManager.default.removeItem(at: home) }
    let previous = umask(0o022)
    defer { umask(previous) }
    let outbox = try Outbox.open(home: ConcordHome(home))
    try outbox.enqueue(scope: "counter", action: .object(["increment": .object([:])]))
    for suffix in ["", "-wal", "-shm"] {
      let path = home.appending(path: "outbox.sqlite" + suffix).path
      var info = stat()
      #expect(stat(path, &info) == 0, "\(path) is missing")
      #expect(info.st_mode & 0o777 == 0o600, "\(path) is \(String(info.st_mode & 0o777, radix: 8))")
    }
    withExtendedLifetime(outbox) {}
  }
}
