import ConcordClient
import ConcordLog
import ConcordPlatform
import ConcordWire
import DaemonDriving
import Foundation
import Testing

/// The log's guarantees as an operator meets them through `concordd` and `concord log`: a copy
/// of every checkpoint outside the home, a verify that does not pass a log whose checkpoint file
/// is gone, a scoped export that still verifies, and nothing readable left behind.
@Suite struct LogTrustCommandLineTests {
  @Test func theDaemonWritesEachCheckpointToItsOwnLogOutput() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    for _ in 1...3 { try ConcordCLI.run(["send", "counter", "inc"], home: daemon.home) }
    #expect(daemon.terminate() == 0)
    // The checkpoint file's newest slot, as the log keeps it.
    let file = try String(contentsOf: daemon.home.appending(path: "log.sqlite.checkpoint"), encoding: .utf8)
    let slots = file.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    let newest = try #require(slots.max { ($0["seq"] as? Int ?? -1) < ($1["seq"] as? Int ?? -1) })
    let seq = try #require(newest["seq"] as? Int)
    let head = try #require(newest["head"] as? String)
    #expect(seq == 4)  // the boot entry, and the three sends' actions
    let output = daemon.output
    #expect(output.contains("checkpoint seq=\(seq) head=\(head)"), "\(output)")
    // The new log's own checkpoint, of no entries yet, was written out too.
    #expect(output.contains("checkpoint seq=0 head="), "\(output)")
  }

  @Test func verifyFailsWithoutTheCheckpointFileUnlessToldToDoWithout() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    for _ in 1...3 { try ConcordCLI.run(["send", "counter", "inc"], home: daemon.home) }
    #expect(daemon.terminate() == 0)
    #expect(try ConcordCLI.run(["log", "verify"], home: daemon.home).status == 0)
    try FileManager.default.removeItem(at: daemon.home.appending(path: "log.sqlite.checkpoint"))
    let strict = try ConcordCLI.run(["log", "verify"], home: daemon.home)
    #expect(strict.status == 1)
    #expect(strict.error.contains("no checkpoint file") && strict.error.contains("--without-checkpoint-file"), "\(strict.error)")
    let waived = try ConcordCLI.run(["log", "verify", "--without-checkpoint-file"], home: daemon.home)
    #expect(waived.status == 0, "\(waived.error)")
    #expect(waived.output.contains("note: no checkpoint file"), "\(waived.output)")
  }

  /// Someone who can edit the home cuts the tail, deletes the newer checkpoints from the
  /// database and copies the checkpoint file's older slot over its newer one: the home then
  /// looks as it once did, and no check of it alone can tell. The daemon's checkpoint line,
  /// kept outside the home, can.
  @Test func aRollbackOfTheWholeHomeIsCaughtWithTheDaemonsCheckpointLine() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    for _ in 1...3 { try ConcordCLI.run(["send", "counter", "inc"], home: daemon.home) }
    #expect(daemon.terminate() == 0)
    let journal = try #require(daemon.output.split(separator: "\n").last { $0.contains("checkpoint seq=4 ") })

    try LogTamper.run("DELETE FROM entries WHERE seq > 2", on: daemon.home)
    try LogTamper.run("DELETE FROM checkpoints WHERE seq > 2", on: daemon.home)
    #expect(try ConcordCLI.run(["log", "verify"], home: daemon.home).status == 1)  // the file still vouches for 4
    let file = daemon.home.appending(path: "log.sqlite.checkpoint")
    let slots = try Data(contentsOf: file)
    let older = try #require([slots.prefix(512), slots.suffix(512)].first { String(decoding: $0, as: UTF8.self).contains(#""seq":0,"#) })
    try (older + older).write(to: file)

    let blind = try ConcordCLI.run(["log", "verify"], home: daemon.home)
    #expect(blind.status == 0, "the limit is documented: if this is caught now, say so in the README")
    let witnessed = try ConcordCLI.run(["log", "verify", "--checkpoint", String(journal)], home: daemon.home)
    #expect(witnessed.status == 1)
    #expect(witnessed.error.contains("seq 3: truncated tail"), "\(witnessed.error)")
    #expect(try ConcordCLI.run(["log", "verify", "--checkpoint", "seq=4"], home: daemon.home).status == 2)
  }

  @Test func aScopedExportDisclosesOneScopeAndStillVerifies() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    try ConcordCLI.run(["send", "counter", "inc"], home: daemon.home)
    try ConcordCLI.run(["send", "notes", #"{"add":{"text":"a secret note"}}"#], home: daemon.home)
    try ConcordCLI.run(["send", "counter", "inc"], home: daemon.home)
    #expect(daemon.terminate() == 0)
    let export = daemon.home.appending(path: "counter.jsonl").path
    let exported = try ConcordCLI.run(["log", "export", "--scope", "counter", "-o", export], home: daemon.home)
    #expect(exported.status == 0, "\(exported.error)")
    let text = try String(contentsOfFile: export, encoding: .utf8)
    #expect(!text.contains("secret") && !text.contains(#""scope":"notes""#))
    // The boot entry and the note are stubs; the counter's two increments are whole.
    let types = text.split(separator: "\n").compactMap { $0.split(separator: ",").first }
    #expect(types.filter { $0 == #"{"type":"stub""# }.count == 2)
    #expect(types.filter { $0 == #"{"type":"entry""# }.count == 2)
    let verified = try ConcordCLI.run(
      ["log", "verify", export, "--public-key", daemon.home.appending(path: "log.sqlite.pub").path], home: daemon.home)
    #expect(verified.status == 0, "\(verified.error)")
  }

  @Test func aFailedExportLeavesNoPartialFileBehind() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    for _ in 1...3 { try ConcordCLI.run(["send", "counter", "inc"], home: daemon.home) }
    #expect(daemon.terminate() == 0)
    // Entry 3 no longer opens: the export writes entries 1 and 2, decrypted, and then fails.
    try LogTamper.run(LogTamper.changeFirstCiphertextByte(ofEntry: 3), on: daemon.home)
    let export = daemon.home.appending(path: "audit.jsonl").path
    let failed = try ConcordCLI.run(["log", "export", "-o", export], home: daemon.home)
    #expect(failed.status == 1)
    #expect(!FileManager.default.fileExists(atPath: export + ".partial"))
    #expect(!FileManager.default.fileExists(atPath: export))
  }

  @Test func theOutboxWALAndSharedMemoryFilesAreMode0600UnderUmask022() throws {
    let previous = umask(0o022)
    defer { umask(previous) }
    let home = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let outbox = try Outbox.open(home: ConcordHome(home))
    try outbox.enqueue(scope: "counter", action: .object(["increment": .object([:])]))
    for suffix in ["", "-wal", "-shm"] {
      let path = ConcordHome(home).outbox.path + suffix
      let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
      #expect(mode == 0o600, "outbox.sqlite\(suffix) is \(String(mode, radix: 8))")
    }
  }
}
