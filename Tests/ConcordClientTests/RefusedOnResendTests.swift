import ConcordLog
import ConcordPlatform
import ConcordWire
import Foundation
import GRDB
import Testing

@testable import ConcordClient

/// What the daemon refused when the outbox resent it is kept for every window of the home
/// to show: with the words typed and the reason, sealed, bounded, until someone dismisses it.
@Suite struct RefusedOnResendTests {
  @Test func aRefusalOnResendIsKeptSealedBoundedAndUntilDismissed() throws {
    let home = TemporaryHome.make()
    defer { try? FileManager.default.removeItem(at: home) }
    let outbox = try Outbox.open(home: ConcordHome(home))
    let count = Outbox.refusedLimit + 5
    for index in 1...count {
      let queued = try outbox.enqueue(scope: "board", action: ["moveCard": ["id": .integer(Int64(index))]], typed: "move \(index) TYPED-MARKER")
      try outbox.remove(cseq: queued.cseq, refusedOnResend: (queued, "there is no card #\(index) REASON-MARKER"))
    }
    // An answer that was no refusal is not kept.
    let applied = try outbox.enqueue(scope: "board", action: ["undo": [:]])
    try outbox.remove(cseq: applied.cseq)

    let kept = try outbox.refusedOnResend()
    #expect(kept.count == Outbox.refusedLimit, "the oldest go first")
    #expect(kept.first?.cseq == 6 && kept.last?.cseq == Int64(count))
    #expect(kept.last?.text == "move \(count) TYPED-MARKER")
    #expect(kept.last?.reason == "there is no card #\(count) REASON-MARKER")
    #expect(kept.last?.scope == "board")
    #expect(try outbox.count() == 0)

    // Nothing of it is readable in the outbox's files.
    var bytes = Data()
    for suffix in ["", "-wal"] {
      if let data = FileManager.default.contents(atPath: ConcordHome(home).outbox.path + suffix) { bytes.append(data) }
    }
    #expect(bytes.range(of: Data("REASON-MARKER".utf8)) == nil)
    #expect(bytes.range(of: Data("TYPED-MARKER".utf8)) == nil)

    // Dismissed up to what a window showed: a refusal that came after stays.
    try outbox.dismissRefused(upTo: 50)
    #expect(try outbox.refusedOnResend().first?.cseq == 51)
    try outbox.dismissRefused()
    #expect(try outbox.refusedOnResend().isEmpty)
  }

  /// An action sent as JSON is named by its JSON.
  @Test func anActionSentAsJSONIsNamedByIt() throws {
    let home = TemporaryHome.make()
    defer { try? FileManager.default.removeItem(at: home) }
    let outbox = try Outbox.open(home: ConcordHome(home))
    let queued = try outbox.enqueue(scope: "counter", action: ["decrement": [:]])
    try outbox.remove(cseq: queued.cseq, refusedOnResend: (queued, "the counter is already at zero"))
    #expect(try outbox.refusedOnResend().map(\.text) == [#"{"decrement":{}}"#])
  }

  /// A kept refusal that does not open with this home's key (damaged, or sealed by another key)
  /// is an error that says which, never a refusal made up.
  @Test func aRefusalThatDoesNotOpenIsAnError() throws {
    let home = TemporaryHome.make()
    defer { try? FileManager.default.removeItem(at: home) }
    let outbox = try Outbox.open(home: ConcordHome(home))
    let queued = try outbox.enqueue(scope: "board", action: ["undo": [:]])
    try outbox.remove(cseq: queued.cseq, refusedOnResend: (queued, "there is nothing to undo"))
    let database = try DatabaseQueue(path: ConcordHome(home).outbox.path)
    try database.write { db in try db.execute(sql: "UPDATE refused SET sealed = zeroblob(60)") }
    #expect(throws: ClientError.local("refused action \(queued.cseq) does not open with this key")) { try outbox.refusedOnResend() }
    // Dismissing still clears it.
    try outbox.dismissRefused()
    #expect(try outbox.refusedOnResend().isEmpty)
  }
}
