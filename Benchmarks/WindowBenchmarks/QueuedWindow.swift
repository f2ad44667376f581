import ConcordClient
import ConcordLog
import ConcordPlatform
import ConcordWire
import Foundation
import Workspace

/// What a window with many actions queued offline spends on each update reading what it shows:
/// the queue from the outbox (sealed rows, decrypted), and the state predicted with the actions
/// on top. A window reads it on every update and once a second.
enum QueuedWindow {
  /// Median milliseconds of: reading the queue again with nothing changed, reading it after one
  /// more action was queued, the whole of what the window shows then (queue and prediction), and
  /// that again with nothing changed (a redraw once a second, a keystroke).
  static func measure(queued count: Int, board: JSONValue) throws -> String {
    let directory = URL(filePath: "/tmp").appending(path: "cdwq-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    defer { try? FileManager.default.removeItem(at: directory) }
    let home = ConcordHome(directory)
    let outbox = try Outbox.open(home: home)
    try outbox.remember(SeenState(scope: "board", logID: "bench", seq: 1, state: board))
    for index in 1...count {
      try outbox.enqueue(scope: "board", action: ["addCard": ["title": .string("Queued \(index) 日本語 👩‍👩‍👧")]])
    }
    // Offline: every queued action of the scope is pending, and shown.
    let session = try WindowSession(home: home, scope: "board", app: Workspace.client)
    let clock = ContinuousClock()
    _ = try outbox.queued()
    var again: [Double] = []
    var oneMore: [Double] = []
    var shown: [Double] = []
    var shownAgain: [Double] = []
    for round in 0..<20 {
      again.append(WindowBenchmarks.milliseconds(clock.measure { _ = try? outbox.queued() }))
      // Another window of the home queues one: this one reads the queue after it.
      try Outbox.open(home: home).enqueue(scope: "board", action: ["addCard": ["title": .string("More \(round)")]])
      oneMore.append(WindowBenchmarks.milliseconds(clock.measure { _ = try? outbox.queued() }))
      shown.append(WindowBenchmarks.milliseconds(clock.measure { _ = session.readShown() }))
      shownAgain.append(WindowBenchmarks.milliseconds(clock.measure { _ = session.readShown() }))
    }
    let f = WindowBenchmarks.format
    return "  a window with \(count.formatted()) actions queued offline: the queue read again \(f(WindowBenchmarks.median(again))) ms,"
      + " after one more was queued \(f(WindowBenchmarks.median(oneMore))) ms; what it shows (the queue read and the"
      + " actions predicted on the board) \(f(WindowBenchmarks.median(shown))) ms, and again with nothing changed"
      + " \(f(WindowBenchmarks.median(shownAgain))) ms"
  }
}
