import ConcordLog
import Foundation
import Testing

/// Invariant 9: nothing readable on disk.
@Suite struct AtRestTests {
  struct Secrets: Codable, Sendable { var diary: String }

  @Test func theDatabaseAndItsWALHoldNoActionUserOrStateText() throws {
    let fixture = LogFixture()
    let log = try fixture.open()
    let marker = "ZEBRA-SECRET-PLAN"
    let records = (1...200).map { n in
      LogRecord(
        client: "window-1", cseq: Int64(n), at: Date(), user: "margarethe-\(n % 3)", scope: "chat:general",
        action: #"{"proclaim":"\#(marker) number \#(n)"}"#, outcome: n % 5 == 0 ? .refused(reason: "REASON-OBLONG") : .applied,
        app: "Workspace", appVersion: 1)
    }
    try log.append(records)
    try log.saveSnapshot(Secrets(diary: "DIARY-OCTOPUS"), at: 200, by: AppVersion(name: "Workspace", version: 1))

    var bytes = Data()
    for suffix in ["", "-wal", "-shm"] {
      if let data = FileManager.default.contents(atPath: fixture.databaseURL.path + suffix) { bytes.append(data) }
    }
    #expect(bytes.count > 10_000)
    // Every needle is eight bytes or longer: a shorter one turns up in megabytes of ciphertext
    // by chance.
    for needle in [marker, "margarethe", "chat:general", "REASON-OBLONG", "DIARY-OCTOPUS", "proclaim", "Workspace"] {
      #expect(bytes.range(of: Data(needle.utf8)) == nil, "\(needle) is readable on disk")
    }
    // The key never touches the database.
    let key = try Data(contentsOf: fixture.keyURL)
    #expect(bytes.range(of: key) == nil)
    let mode = try FileManager.default.attributesOfItem(atPath: fixture.databaseURL.path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
  }
}
