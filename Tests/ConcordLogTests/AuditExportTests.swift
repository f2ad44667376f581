import ConcordLog
import Foundation
import Testing

@Suite struct AuditExportTests {
  private func exported(_ log: ActionLog, format: AuditFormat = .jsonl, from: Int64 = 1, through: Int64? = nil) throws -> [String] {
    var lines: [String] = []
    try log.exportAudit(format: format, from: from, through: through) { lines.append($0) }
    return lines
  }

  @Test func anExportVerifiesWithThePublicKeyAlone() throws {
    let fixture = LogFixture()
    let log = try fixture.open()
    try log.append((1...40).map { record($0, refused: $0 == 7) })
    let lines = try exported(log)
    #expect(lines.count == 42)
    let publicKey = try AuditExport.publicKey(fromFileAt: log.publicKeyFile)
    #expect(publicKey == log.publicKey)
    let result = AuditExport.verify(lines: lines, publicKey: publicKey)
    #expect(result.failure == nil)
    #expect(result.verifiedEntries == 40)
    #expect(!result.usedHeaderKey)

    let header = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as! [String: Any]
    #expect(header["count"] as? Int == 40)
    #expect(header["first_time"] as? String == "2027-01-15T08:00:00.100Z")
    let seventh = try JSONSerialization.jsonObject(with: Data(lines[7].utf8)) as! [String: Any]
    #expect(seventh["user"] as? String == "alice")
    #expect(seventh["outcome"] as? String == "refused")
    #expect(seventh["reason"] as? String == "the column todo is full")

    // A range verifies too, chained from the hash before it.
    let range = try exported(log, from: 11, through: 20)
    #expect(AuditExport.verify(lines: range, publicKey: publicKey).verifiedEntries == 10)
  }

  @Test func aTamperedExportFailsAtTheRightLine() throws {
    let fixture = LogFixture()
    let log = try fixture.open()
    try log.append((1...20).map { record($0) })
    var lines = try exported(log)
    lines[5] = lines[5].replacingOccurrences(of: "alice", with: "mallory")
    let result = AuditExport.verify(lines: lines)
    #expect(result.failure?.line == 6)
    #expect(result.failure?.seq == 5)

    var cut = try exported(log)
    cut.removeLast(3)
    #expect(AuditExport.verify(lines: cut).failure?.reason.contains("footer is missing") == true)

    // Unsigned additions are refused: a reason slipped into an applied entry, a new field, a
    // header that claims another range.
    var annotated = try exported(log)
    annotated[3] = annotated[3].replacingOccurrences(of: #""reason":null"#, with: #""reason":"approved by the CFO""#)
    #expect(AuditExport.verify(lines: annotated).failure?.line == 4)
    var extra = try exported(log)
    extra[2] = extra[2].replacingOccurrences(of: #"{"type":"entry","#, with: #"{"type":"entry","note":"x","#)
    #expect(AuditExport.verify(lines: extra).failure?.reason.contains("unknown member note") == true)
    var relabelled = try exported(log)
    relabelled[0] = relabelled[0].replacingOccurrences(of: #""to":20"#, with: #""to":25"#)
    #expect(AuditExport.verify(lines: relabelled).isSound == false)

    // Another log's key does not verify this log's export.
    let stranger = try LogFixture().open()
    let forged = AuditExport.verify(lines: try exported(log), publicKey: stranger.publicKey)
    #expect(forged.isSound == false)
  }

  @Test func aCSVExportHoldsTheSameRecordsForSpreadsheets() throws {
    let fixture = LogFixture()
    let log = try fixture.open()
    try log.append([record(1), record(2)])
    var metadata: [String] = []
    var lines: [String] = []
    try log.exportAudit(format: .csv, metadata: { metadata.append($0) }) { lines.append($0) }
    // A plain CSV file: the column names, then the rows; nothing else a CSV reader could trip on.
    #expect(lines.count == 3)
    #expect(lines[0] == "seq,time,user,client,cseq,scope,action,outcome,reason,app,app_version,salt,prev_hash,hash")
    #expect(lines[1].hasPrefix("1,2027-01-15T08:00:00.100Z,alice,window-1,1,board,\"{\"\"addCard\"\""))
    // The header and the footer, for the file beside it, as the JSONL export writes them.
    let jsonl = try exported(log)
    #expect(metadata == [jsonl.first!, jsonl.last!])

    // A spreadsheet never runs what a user typed.
    var formula = record(3)
    formula.scope = "=HYPERLINK(\"http://evil\")"
    try log.append([formula])
    let row = try exported(log, format: .csv, from: 3)[1]
    #expect(row.contains("\"'=HYPERLINK"))
  }

  @Test func aRangeBeyondTheEndIsRefusedNotCalledCorrupt() throws {
    let fixture = LogFixture()
    let log = try fixture.open()
    try log.append([record(1)])
    #expect(throws: LogError.outOfRange(from: 5, through: nil, lastSeq: 1)) {
      try exported(log, from: 5)
    }
  }

  @Test func aPublicKeyFileThatIsNotAKeyIsRefused() throws {
    let fixture = LogFixture()
    let file = fixture.directory.appending(path: "log.sqlite.pub")
    try Data("ABCDEF\n".utf8).write(to: file)
    #expect(throws: LogError.self) { try AuditExport.publicKey(fromFileAt: file) }
    #expect(throws: LogError.io(path: fixture.directory.appending(path: "none.pub").path, reason: "the public key file is missing")) {
      try AuditExport.publicKey(fromFileAt: fixture.directory.appending(path: "none.pub"))
    }
  }

  @Test func anExportFileVerifiesFromDisk() throws {
    let fixture = LogFixture()
    let log = try fixture.open()
    try log.append((1...5).map { record($0) })
    let file = fixture.directory.appending(path: "audit.jsonl")
    try (try exported(log).joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
    #expect(try AuditExport.verify(fileAt: file).verifiedEntries == 5)
  }
}
