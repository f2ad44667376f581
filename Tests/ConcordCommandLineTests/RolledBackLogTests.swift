import ConcordWire
import DaemonDriving
import Foundation
import Testing

/// A daemon whose log went back in time — its files restored from an older copy — is caught by
/// the clients that saw the newer entries: nothing is sent to it until a person accepts it.
@Suite(.serialized) struct RolledBackLogTests {
  @Test func aLogRestoredFromAnOlderCopyStopsTheOutboxUntilAPersonAcceptsIt() throws {
    let (home, older) = (DaemonUnderTest.makeHome(), DaemonUnderTest.makeHome())
    defer { Self.remove(home, older) }
    var daemon = try DaemonUnderTest(home: home).start()
    #expect(try ConcordCLI.run(["send", "counter", "inc"], home: home).status == 0)
    #expect(daemon.terminate() == 0)
    try copyLog(from: home, to: older)

    daemon = try DaemonUnderTest(home: home).start()
    #expect(try ConcordCLI.run(["send", "counter", "inc"], home: home).status == 0)
    let last = try ConcordCLI.run(["send", "counter", "inc"], home: home)
    let seen = try #require(Int64(last.output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").last ?? ""))
    #expect(daemon.terminate() == 0)

    // Someone with the files puts the older copy of the log back (its checkpoint with it).
    try copyLog(from: older, to: home)
    daemon = try DaemonUnderTest(home: home).start()
    defer { _ = daemon.terminate() }
    let peer = try LineSocket(path: daemon.socketPath)
    let restoredAt = try peer.hello().seq
    peer.close()
    #expect(restoredAt < seen)
    // Where the daemon's log ends when a command meets it: where it was restored to, or a little
    // further (the boot's own actions may still be committing), but before what this home saw.
    func logEnd(in sentence: String) -> Int64? {
      let pattern = /the daemon's log ends at (\d+) but this home has seen (\d+): the log was rolled back or restored from an older copy/
      guard let match = sentence.firstMatch(of: pattern), Int64(match.2) == seen, let end = Int64(match.1),
        end >= restoredAt, end < seen
      else { return nil }
      return end
    }

    let refused = try ConcordCLI.run(["send", "counter", "inc"], home: home)
    #expect(refused.status == 1)
    #expect(logEnd(in: refused.error) != nil, "\(refused.error)")
    #expect(refused.error.contains("concord outbox sync --accept-rollback"), "\(refused.error)")
    #expect(try ConcordCLI.run(["outbox", "list"], home: home).output.split(separator: "\n").count == 1)
    let stillRefused = try ConcordCLI.run(["outbox", "sync"], home: home)
    #expect(stillRefused.status == 1)
    #expect(logEnd(in: stillRefused.error) != nil, "\(stillRefused.error)")

    let window = try RunningCLI(["attach", "counter", "--json"], home: home)
    try window.readLine(containing: #""type":"log-rolled-back""#, "the log was rolled back")
    window.stop()
    #expect(try ConcordCLI.run(["outbox", "list"], home: home).output.split(separator: "\n").count == 1)

    // A person decides: the daemon's log as it is. The queued action goes, once.
    let accepted = try ConcordCLI.run(["outbox", "sync", "--accept-rollback"], home: home)
    #expect(accepted.status == 0, "\(accepted.error)")
    #expect(accepted.output.contains("synced: 1 applied"), "\(accepted.output)")
    #expect(try ConcordCLI.run(["send", "counter", "inc"], home: home).status == 0)
    #expect(try ConcordCLI.run(["state", "counter"], home: home).output.trimmingCharacters(in: .whitespacesAndNewlines) == "3")
  }

  /// What a window was shown counts as much as what was acknowledged: a window that only watched
  /// another person's actions catches the rollback, and so does every command of its home.
  @Test func aWindowThatWasShownNewerEntriesCatchesTheRollback() throws {
    let (home, older) = (DaemonUnderTest.makeHome(), DaemonUnderTest.makeHome())
    defer { Self.remove(home, older) }
    var daemon = try DaemonUnderTest(home: home).start()
    #expect(daemon.terminate() == 0)
    try copyLog(from: home, to: older)

    daemon = try DaemonUnderTest(home: home).start()
    let window = try RunningCLI(["attach", "counter", "--json"], home: home)
    try window.readLine(containing: #""type":"snapshot""#)
    let other = try LineSocket(path: daemon.socketPath)
    try other.hello()
    _ = try other.attach("counter")
    for cseq in Int64(1)...3 {
      try other.send(.send(scope: "counter", action: ["increment": [:]], client: "someone-else", cseq: cseq))
    }
    let update = try window.readLine(containing: #""type":"update""#, #""reset":3"#)
    let seen = try #require(update.firstMatch(of: /"seq":(\d+)/).flatMap { Int64($0.1) })
    other.close()
    #expect(daemon.terminate() == 0)

    try copyLog(from: older, to: home)
    daemon = try DaemonUnderTest(home: home).start()
    defer { _ = daemon.terminate() }
    let rolledBack = try window.readLine(containing: #""type":"log-rolled-back""#, timeout: 20)
    #expect(rolledBack.contains("but this home has seen \(seen): the log was rolled back"), "\(rolledBack)")
    window.stop()
    let refused = try ConcordCLI.run(["send", "counter", "inc"], home: home)
    #expect(refused.status == 1)
    #expect(refused.error.contains("but this home has seen \(seen): the log was rolled back"), "\(refused.error)")
  }

  /// Removes the test's homes.
  private static func remove(_ homes: URL...) {
    for home in homes { try? FileManager.default.removeItem(at: home) }
  }

  /// Replaces the log's files in `destination` with those in `source`: the database, its
  /// checkpoint and public key (a cleanly stopped daemon leaves no -wal or -shm).
  private func copyLog(from source: URL, to destination: URL) throws {
    let files = FileManager.default
    for name in try files.contentsOfDirectory(atPath: destination.path) where name.hasPrefix("log.sqlite") {
      try files.removeItem(at: destination.appending(path: name))
    }
    for name in try files.contentsOfDirectory(atPath: source.path) where name.hasPrefix("log.sqlite") {
      try files.copyItem(at: source.appending(path: name), to: destination.appending(path: name))
    }
  }
}
