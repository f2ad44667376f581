import ConcordJSON
import DaemonDriving
import Foundation
import Testing

/// An action typed while the daemon was away is the app's as of when it was typed, not when
/// the link came back; the log's entry keeps the time the daemon took it, so the log's times
/// never go back.
@Suite(.serialized) struct TypedTimeTests {
  @Test func anActionTypedOfflineKeepsTheTimeItWasTyped() throws {
    let home = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let before = Date()
    let queued = try ConcordCLI.run(["send", "board", "add Typed on the train"], home: home, app: "workspace")
    let after = Date()
    #expect(queued.status == 3, "\(queued.error)")
    // The link comes back later.
    Thread.sleep(forTimeInterval: 1.5)
    let daemon = try DaemonUnderTest(home: home, app: "workspace").start()
    defer { _ = daemon.terminate() }
    let synced = try ConcordCLI.run(["outbox", "sync"], home: home, app: "workspace")
    #expect(synced.status == 0, "\(synced.error)")

    let printed = try ConcordCLI.run(["state", "board"], home: home, app: "workspace").output
    let board = try #require(try JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [String: Any])
    let cards = (board["columns"] as? [[String: Any]] ?? []).flatMap { $0["cards"] as? [[String: Any]] ?? [] }
    let card = try #require(cards.first { ($0["title"] as? String) == "Typed on the train" })
    let created = try JSONDate.date(from: try #require(card["createdAt"] as? String))
    #expect(created >= before.addingTimeInterval(-0.001) && created <= after.addingTimeInterval(0.001), "created \(created), typed between \(before) and \(after)")

    let entries = try ConcordCLI.run(["inspect", "--json", "--text", "Typed on the train"], home: home, app: "workspace")
    let line = try #require(entries.output.split(separator: "\n").first)
    let entry = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    let logged = try JSONDate.date(from: try #require(entry["time"] as? String))
    #expect(logged.timeIntervalSince(created) >= 1.4, "the entry is logged when the daemon took it: \(logged) vs typed \(created)")
  }
}
