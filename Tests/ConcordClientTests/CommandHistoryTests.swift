import ConcordLog
import ConcordPlatform
import Foundation
import GRDB
import Testing

@testable import ConcordClient

/// What a person typed in a scope's windows is kept for the next window: by scope, sealed,
/// bounded, and never in the way when it cannot be read.
@Suite struct CommandHistoryTests {
  @Test func linesAreKeptPerScopeSealedAndBounded() throws {
    let home = TemporaryHome.make()
    defer { try? FileManager.default.removeItem(at: home) }
    let outbox = try Outbox.open(home: ConcordHome(home))
    try outbox.recordHistory("move 2 HISTORY-MARKER", in: "board")
    try outbox.recordHistory("move 2 HISTORY-MARKER", in: "board")
    try outbox.recordHistory("/delete 3", in: "chat")
    #expect(try outbox.history(of: "board") == ["move 2 HISTORY-MARKER"], "a repeat is kept once")
    #expect(try outbox.history(of: "chat") == ["/delete 3"])
    for index in 0..<(Outbox.historyLimit + 20) { try outbox.recordHistory("line \(index)", in: "card") }
    let card = try outbox.history(of: "card")
    #expect(card.count == Outbox.historyLimit && card.first == "line 20" && card.last == "line \(Outbox.historyLimit + 19)")
    // Nothing typed is readable in the outbox's files.
    var bytes = Data()
    for suffix in ["", "-wal"] {
      if let data = FileManager.default.contents(atPath: ConcordHome(home).outbox.path + suffix) { bytes.append(data) }
    }
    #expect(bytes.range(of: Data("HISTORY-MARKER".utf8)) == nil)
  }

  /// A history sealed under another key, or damaged, is an empty one: the window opens.
  @Test func aHistoryThatDoesNotOpenIsEmptyAndIsWrittenAfresh() throws {
    let home = TemporaryHome.make()
    defer { try? FileManager.default.removeItem(at: home) }
    let outbox = try Outbox.open(home: ConcordHome(home))
    try outbox.recordHistory("label 1 bug", in: "board")
    let database = try DatabaseQueue(path: ConcordHome(home).outbox.path)
    try database.write { db in try db.execute(sql: "UPDATE history SET sealed = zeroblob(40)") }
    #expect(try outbox.history(of: "board") == [])
    try outbox.recordHistory("label 2 bug", in: "board")
    #expect(try outbox.history(of: "board") == ["label 2 bug"])
  }
}
