import ConcordLog
import ConcordPlatform
import ConcordWire
import Foundation
import GRDB
import PropertyRandom
import Testing

@testable import ConcordClient

/// A window reads the queued actions on every update, and the outbox keeps what it opened so
/// that reading them again decrypts nothing new. Whatever two windows of one home (two
/// connections) do in turn, each reads exactly what a plain list of the queue holds; and a row
/// changed behind both their backs is read again, not taken from memory.
@Suite struct QueuedMemoTests {
  @Test func twoWindowsOfOneHomeAlwaysReadTheQueueAsItIs() throws {
    for seed in PropertyRandom.seeds(from: 0x0_0B0_C5E, count: 8) {
      var random = PropertyRandom(seed: seed)
      let directory = TemporaryHome.make()
      defer { try? FileManager.default.removeItem(at: directory) }
      let windows = [try Outbox.open(home: ConcordHome(directory)), try Outbox.open(home: ConcordHome(directory))]
      // The model: what is queued, in order, as (cseq, scope, action).
      var model: [(cseq: Int64, scope: String, action: JSONValue)] = []
      for step in 0..<random.int(40...80) {
        let window = random.pick(windows)
        switch random.int(0...9) {
        case 0...4:
          let scope = random.pick(["board", "chat:caf\u{E9}", "column:todo"])
          let action: JSONValue = ["say": ["text": .string(random.pick(["", "\u{0}", "日本語", "👩‍👩‍👧", String(repeating: "x", count: 5_000)]))]]
          let queued = try window.enqueue(scope: scope, action: action)
          model.append((queued.cseq, scope, action))
        case 5...7 where !model.isEmpty:
          let index = random.int(0...model.count - 1)
          try window.remove(cseq: model[index].cseq)
          model.remove(at: index)
        case 8 where !model.isEmpty:
          let index = random.int(0...model.count - 1)
          #expect(try window.drop(cseq: model[index].cseq) == 1)
          model.remove(at: index)
        default:
          break
        }
        // Each window, asked once or twice, reads the queue as the model holds it.
        for reader in windows {
          for _ in 0..<random.int(1...2) {
            let read = try reader.queued()
            #expect(read.map(\.cseq) == model.map(\.cseq), "seed \(seed) step \(step)")
            #expect(read.map(\.action) == model.map(\.action), "seed \(seed) step \(step)")
            #expect(read.map(\.scope) == model.map(\.scope), "seed \(seed) step \(step)")
          }
        }
      }
    }
  }

  @Test func aRowChangedBehindTheOutboxIsReadAgain() throws {
    let directory = TemporaryHome.make()
    defer { try? FileManager.default.removeItem(at: directory) }
    let home = ConcordHome(directory)
    let outbox = try Outbox.open(home: home)
    let first = try outbox.enqueue(scope: "board", action: ["addCard": ["title": "one"]])
    try outbox.enqueue(scope: "board", action: ["addCard": ["title": "two"]])
    #expect(try outbox.queued().count == 2)

    // Someone with the file swaps the rows' sealed bytes: each no longer opens where it is.
    let other = try DatabaseQueue(path: home.outbox.path)
    try other.write { db in
      let rows = try Row.fetchAll(db, sql: "SELECT cseq, sealed FROM pending ORDER BY cseq")
      let (a, b): (Data, Data) = (rows[0]["sealed"], rows[1]["sealed"])
      try db.execute(sql: "UPDATE pending SET sealed = ? WHERE cseq = ?", arguments: [b, rows[0]["cseq"] as Int64])
      try db.execute(sql: "UPDATE pending SET sealed = ? WHERE cseq = ?", arguments: [a, rows[1]["cseq"] as Int64])
    }
    #expect(throws: ClientError.self) { try outbox.queued() }
    _ = first
  }
}
