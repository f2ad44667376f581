import ConcordApp
import ConcordLog
import ConcordReplay
import ConcordWire
import DaemonDriving
import Foundation
import Logging
import SampleApp
import Testing

@testable import ConcordServer

/// Boot rebuilds the state from the log, or refuses to start and says why — never a different
/// state, never a skipped entry.
@Suite struct BootTests {
  let home = DaemonUnderTest.makeHome()
  let logger = Logger(label: "boot-tests")

  func openLog() throws -> ActionLog {
    try ActionLog.open(at: home.appending(path: "log.sqlite"), key: .file(home.appending(path: "key")))
  }

  func record(_ cseq: Int64, _ action: String, version: Int = SampleApp.version, app: String = "Sample", refused: String? = nil) -> LogRecord {
    LogRecord(
      client: "w", cseq: cseq, at: Date(), user: "alice", scope: "counter", action: action,
      outcome: refused.map { .refused(reason: $0) } ?? .applied, app: app, appVersion: version)
  }

  @Test func theStateIsTheFoldOfTheLogFromTheNewestSnapshot() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    let log = try openLog()
    try log.append((1...3).map { record($0, #"{"counter":{"add":{"amount":10}}}"#) })
    var snapshot = SampleApp.State()
    snapshot.counter = 30
    try log.saveSnapshot(snapshot, at: 3, by: SampleApp.hosted.appVersion)
    try log.append([
      record(4, #"{"counter":{"increment":{}}}"#),
      record(5, #"{"counter":{"decrement":{}}}"#),
    ])
    let booted = try SampleApp.hosted.boot(from: log, logger: logger)
    #expect(booted.state.counter == 30)  // 30 + 1 - 1
    #expect(booted.snapshotSeq == 3)
    #expect(booted.replayed == 2)  // only the tail after the snapshot
    #expect(booted.highestCseq == ["w": 5])
  }

  @Test func aRefusedEntryReplaysAsARefusal() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    let log = try openLog()
    try log.append([record(1, #"{"counter":{"decrement":{}}}"#, refused: "the counter is already at zero")])
    #expect(try SampleApp.hosted.boot(from: log, logger: logger).state.counter == 0)
  }

  @Test func anEntryFromANewerVersionStopsTheBootAndSaysWhere() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    let log = try openLog()
    try log.append([record(1, #"{"counter":{"increment":{}}}"#), record(2, #"{"counter":{"warp":{}}}"#, version: SampleApp.version + 1)])
    let error = try #require(throws: BootError.self) { try SampleApp.hosted.boot(from: log, logger: logger) }
    #expect(error.description.contains("entry 2 (Sample version \(SampleApp.version + 1)) was written by a newer version"))
  }

  @Test func anEntryThatDoesNotDecodeStopsTheBoot() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    let log = try openLog()
    try log.append([record(1, #"{"counter":{"warp":{}}}"#)])
    let error = try #require(throws: BootError.self) { try SampleApp.hosted.boot(from: log, logger: logger) }
    #expect(error.description.contains("entry 1 (Sample version \(SampleApp.version)) cannot be read"))
  }

  @Test func anOlderVersionIsMigratedOrRefused() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    let log = try openLog()
    // Version 0 spelled the counter's add as {"plus": n}.
    try log.append([record(1, #"{"plus":4}"#, version: 0)])
    #expect(throws: BootError.self) { try SampleApp.hosted.boot(from: log, logger: logger) }
    var migrating = SampleApp.hosted
    migrating = HostedApp(
      name: "Sample", version: SampleApp.version, initialState: SampleApp.State(), reducer: SampleApp.reducer, environment: (),
      scopes: migrating.scopes,
      migrateAction: { json, version in
        guard version == 0, case let .object(object) = json, let amount = object["plus"] else {
          throw MigrationError(message: "unknown version \(version)")
        }
        return ["counter": ["add": ["amount": amount]]]
      })
    #expect(try migrating.boot(from: log, logger: logger).state.counter == 4)
  }

  /// Version 1 spelled its actions as Swift's synthesized coding does (`{"counter":{"_0":…}}`,
  /// `{"note":{"id":1,"_1":…}}`); its log boots through the migration to version 2's spelling.
  @Test func aVersion1LogBootsThroughTheMigration() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    let log = try openLog()
    try log.append([
      record(1, #"{"counter":{"_0":{"add":{"amount":3}}}}"#, version: 1),
      record(2, #"{"notes":{"_0":{"add":{"text":"milk"}}}}"#, version: 1),
      record(3, #"{"note":{"id":1,"_1":{"toggle":{}}}}"#, version: 1),
      record(4, #"{"attached":{"window":"w-1","scope":"notes"}}"#, version: 1),
      record(5, #"{"note":{"id":1,"action":{"edit":{"text":"oat milk"}}}}"#),
    ])
    let state = try SampleApp.hosted.boot(from: log, logger: logger).state
    #expect(state.counter == 3)
    #expect(state.notes.map(\.text) == ["oat milk"] && state.notes.map(\.done) == [true])
    #expect(state.presence == ["w-1": ["notes"]])
  }

  @Test func anOutcomeThatWouldDifferStopsTheBoot() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    let log = try openLog()
    // Recorded as applied, but the reducer refuses it from the initial state.
    try log.append([record(1, #"{"counter":{"decrement":{}}}"#)])
    let error = try #require(throws: BootError.self) { try SampleApp.hosted.boot(from: log, logger: logger) }
    #expect(error.description.contains("replaying entry 1 refuses it"))
  }

  @Test func anotherAppsLogIsRefused() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    let log = try openLog()
    try log.append([record(1, #"{"counter":{"increment":{}}}"#, app: "Other")])
    let error = try #require(throws: BootError.self) { try SampleApp.hosted.boot(from: log, logger: logger) }
    #expect(error.description.contains("written by another app"))
  }
}
