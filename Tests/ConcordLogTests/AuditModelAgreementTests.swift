import ConcordLog
import Foundation
import Testing

/// `AuditExport.verify` against `audit_verify_model.py`, an independent verifier written from
/// `schema/audit-export.schema.json` alone: on good exports full of hostile text, and on
/// exports made hostile line by line, the two must reach the same verdict at the same line.
@Suite struct AuditModelAgreementTests {
  /// Text that has broken exports elsewhere: NUL and controls, canonically equivalent spellings,
  /// emoji, CRLF, CSV's quote and comma, and what a spreadsheet takes for a formula — or for
  /// the formula guard itself.
  static let hostileTexts = [
    "nul\u{0}inside", "\u{1}\u{1f}\u{7f}", "café", "cafe\u{301}", "👩‍👩‍👧 ✓", "line\r\nbreak", "\"q\",c",
    "=1+1", "+1", "-1", "@sum", "'quoted", "''twice", "\ttab", "\rcr", "", " ", "\\", "\u{FEFF}bom",
    "\u{2028}", "=\u{301}combined",
  ]

  /// A log holding one entry per hostile text (in every sealed field), Int64 extremes and two
  /// scopes, and the entries' count.
  func hostileLog() throws -> (LogFixture, ActionLog) {
    let fixture = LogFixture()
    let log = try fixture.open()
    var records: [LogRecord] = []
    for (n, text) in Self.hostileTexts.enumerated() {
      let extremes: [Int64] = [.min, .max, -1, 0]
      records.append(
        LogRecord(
          client: "client-\(n % 3)", cseq: n < extremes.count ? extremes[n] : Int64(n) * 1000,
          at: Date(timeIntervalSince1970: n == 5 ? -86_400.25 : 1_800_000_000 + Double(n) / 1000),
          user: text, scope: n % 2 == 0 ? "board" : "card:\(text)", action: #"{"say":"\#(text)"}"#,
          outcome: n % 3 == 0 ? .refused(reason: text) : .applied, app: text,
          appVersion: [Int.min, Int.max, 0, -3][n % 4]))
    }
    try log.append(records)
    return (fixture, log)
  }

  func export(_ log: ActionLog, format: AuditFormat = .jsonl, scope: String? = nil) throws -> [String] {
    var lines: [String] = []
    try log.exportAudit(format: format, scope: scope) { lines.append($0) }
    return lines
  }

  /// A CSV export: the file's lines, and those of its metadata file (the header and the footer).
  func csvExport(_ log: ActionLog, scope: String? = nil) throws -> (rows: [String], metadata: [String]) {
    var rows: [String] = []
    var metadata: [String] = []
    try log.exportAudit(format: .csv, scope: scope, metadata: { metadata.append($0) }) { rows.append($0) }
    return (rows, metadata)
  }

  /// Both verifiers' verdicts on `text`: nil when sound, else the failing line. With `csvMetadata`,
  /// `text` is a CSV export, checked by the model alone, with that metadata file beside it.
  func verdicts(
    _ text: String, in fixture: LogFixture, key: [UInt8], csvMetadata: [String]? = nil
  ) throws -> (swift: Int?, model: Int?, modelSays: String) {
    let file = fixture.directory.appending(path: "export-\(UUID().uuidString)")
    try Data(text.utf8).write(to: file)
    if let csvMetadata {
      try Data(csvMetadata.map { $0 + "\n" }.joined().utf8).write(to: URL(filePath: file.path + ".meta.jsonl"))
    }
    let csv = csvMetadata != nil
    let model = try Self.runModel(file: file, key: key, csv: csv)
    let swift = csv ? nil : try AuditExport.verify(fileAt: file, publicKey: key).failure?.line
    return (swift, model.status == 0 ? nil : Int(model.output.split(separator: " ").dropFirst().first ?? ""), model.output)
  }

  static func runModel(file: URL, key: [UInt8], csv: Bool) throws -> (status: Int32, output: String) {
    let script = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "audit_verify_model.py")
    let process = Process()
    process.executableURL = URL(filePath: "/usr/bin/env")
    process.arguments = ["python3", script.path] + (csv ? ["--csv"] : []) + ["--public-key", key.map { String(format: "%02x", $0) }.joined(), file.path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  }

  @Test func aHostileButHonestExportVerifiesInBothAndItsCSVRecomputesInTheModel() throws {
    let (fixture, log) = try hostileLog()
    let lines = try export(log)
    let both = try verdicts(lines.joined(separator: "\n") + "\n", in: fixture, key: log.publicKey)
    #expect(both.swift == nil && both.model == nil, "\(both)")
    #expect(both.modelSays == "ok \(Self.hostileTexts.count) 0")
    // The CSV and its metadata file are enough: the formula guard is undone by removing one
    // leading quote.
    let csv = try csvExport(log)
    let fromCSV = try verdicts(csv.rows.joined(separator: "\n") + "\n", in: fixture, key: log.publicKey, csvMetadata: csv.metadata)
    #expect(fromCSV.modelSays == "ok \(Self.hostileTexts.count) 0", "\(fromCSV)")
    #expect(!csv.rows.contains { $0.hasPrefix("=") || $0.contains(",=") || $0.contains(",+") || $0.contains(",@") })
  }

  /// An export of one scope: the other entries as stubs, and the chain whole.
  @Test func aScopedExportVerifiesWithStubsInBoth() throws {
    let (fixture, log) = try hostileLog()
    let lines = try export(log, scope: "board")
    let stubs = lines.filter { $0.hasPrefix(#"{"type":"stub""#) }
    let entries = lines.filter { $0.hasPrefix(#"{"type":"entry""#) }
    #expect(stubs.count == Self.hostileTexts.count / 2)
    #expect(entries.count == Self.hostileTexts.count - stubs.count)
    #expect(stubs.allSatisfy { !$0.contains("time") && !$0.contains("user") && !$0.contains("card:") })
    #expect(lines[0].contains(#""scope":"board""#) && lines[0].contains(#""count":\#(Self.hostileTexts.count)"#))
    let both = try verdicts(lines.joined(separator: "\n") + "\n", in: fixture, key: log.publicKey)
    #expect(both.swift == nil && both.model == nil, "\(both)")
    let result = AuditExport.verify(lines: lines, publicKey: log.publicKey)
    #expect(result.verifiedEntries == Int64(entries.count))
    #expect(both.modelSays == "ok \(entries.count) \(stubs.count)")
    let csv = try csvExport(log, scope: "board")
    #expect(
      try verdicts(csv.rows.joined(separator: "\n") + "\n", in: fixture, key: log.publicKey, csvMetadata: csv.metadata).modelSays
        == "ok \(entries.count) \(stubs.count)")

    // A stub whose hash was changed, and a stub in an export that names no scope, fail in both.
    let stubLine = try #require(lines.firstIndex { $0.hasPrefix(#"{"type":"stub""#) })
    var forged = lines
    forged[stubLine] = String(forged[stubLine].dropLast(3)) + "00\"}"
    var unscoped = lines
    unscoped[0] = unscoped[0].replacingOccurrences(of: #""scope":"board","#, with: "")
    for hostile in [forged, unscoped] {
      let verdict = try verdicts(hostile.joined(separator: "\n") + "\n", in: fixture, key: log.publicKey)
      #expect(verdict.swift != nil && verdict.swift == verdict.model, "\(verdict)")
    }
  }

  /// Each hostile edit of a good export, and the line both verifiers must stop at.
  @Test func hostileExportsAreRejectedByBothAtTheSameLine() throws {
    let (fixture, log) = try hostileLog()
    let lines = try export(log)
    let text = lines.joined(separator: "\n") + "\n"
    let footer = lines.count
    func edit(_ index: Int, _ change: (String) -> String) -> String {
      var copy = lines
      copy[index] = change(copy[index])
      return copy.joined(separator: "\n") + "\n"
    }
    func replacing(_ index: Int, _ old: String, _ new: String) -> String {
      edit(index) { line in
        guard let range = line.range(of: old) else { fatalError("\(old) is not in line \(index + 1): \(line)") }
        return line.replacingCharacters(in: range, with: new)
      }
    }
    let cases: [(String, String, Int?)] = [
      ("a forged user before the real one", replacing(2, #""user":"#, #""user":"mallory","user":"#), 3),
      ("a duplicate in the header", replacing(0, #""count":"#, #""count":0,"count":"#), 1),
      ("an integer as 1.0", replacing(2, #""seq":2,"#, #""seq":2.0,"#), 3),
      ("an integer with an exponent", replacing(3, #""seq":3,"#, #""seq":3e0,"#), 4),
      ("an integer past Int64", replacing(1, #""cseq":-9223372036854775808"#, #""cseq":-9223372036854775809"#), 2),
      ("a leading zero", replacing(3, #""seq":3,"#, #""seq":03,"#), 4),
      ("a byte-order mark first", "\u{FEFF}" + text, 1),
      ("a byte-order mark on an entry", edit(4) { "\u{FEFF}" + $0 }, 5),
      ("a lone surrogate", replacing(2, #""user":""#, #""user":"\ud800"#), 3),
      ("uppercase hex", edit(2) { line in
        let start = line.range(of: #""hash":""#, options: .backwards)!.upperBound
        return String(line[..<start]) + line[start...].uppercased()
      }, 3),
      ("a boolean", replacing(2, #""reason":null"#, #""reason":false"#), 3),
      ("a nested object", replacing(2, #""reason":null"#, #""reason":{}"#), 3),
      ("NaN", replacing(2, #""cseq":"#, #""x":NaN,"cseq":"#), 3),
      ("a raw tab in a string", replacing(2, #""app":""#, "\"app\":\"\t"), 3),
      ("an unknown member", replacing(2, #"{"type":"entry","#, #"{"type":"entry","note":"x","#), 3),
      ("a missing member", replacing(2, #","app_version":"#, #","app_ver":"#), 3),
      ("the last entry cut", (lines.prefix(footer - 2) + [lines[footer - 1]]).joined(separator: "\n") + "\n", footer - 1),
      ("the last entry and the footer cut", lines.prefix(footer - 2).joined(separator: "\n") + "\n", footer - 2),
      ("a stub in a full export", edit(3) { line in
        let object = try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
        return #"{"type":"stub","seq":\#(object["seq"]!),"prev_hash":"\#(object["prev_hash"]!)","hash":"\#(object["hash"]!)"}"#
      }, 4),
      ("a second header", edit(3) { _ in lines[0] }, 4),
      ("a footer whose signature is not the log key's", edit(footer - 1) { line in
        let start = line.range(of: #""signature":""#)!.upperBound
        let first = line[start]
        return line.replacingCharacters(in: start...start, with: first == "0" ? "1" : "0")
      }, footer),
      ("text after the footer", text + lines[1] + "\n", footer + 1),
      // Accepted by both: JSON's whitespace and escapes change no value.
      ("spaces between tokens", replacing(2, #"{"type":"entry","#, #"{ "type" : "entry" , "#), nil),
      ("an escaped letter", replacing(1, #""scope":"b"#, #""scope":"\u0062"#), nil),
    ]
    for (name, hostile, line) in cases {
      let verdict = try verdicts(hostile, in: fixture, key: log.publicKey)
      #expect(verdict.swift == line && verdict.model == line, "\(name): \(verdict)")
    }
  }

  /// Where a tail was cut, the verifier names the first missing seq.
  /// No record is longer than 8 MiB, so a longer line is refused by both, where it is, even
  /// when it is otherwise sound JSON (here an entry padded with insignificant whitespace); one
  /// of exactly 8 MiB is still read.
  @Test func aLineLongerThanAnyRecordIsRefusedByBoth() throws {
    let (fixture, log) = try hostileLog()
    let lines = try export(log)
    /// Entry 1's line padded with whitespace after its `{` to `length` bytes.
    func padded(to length: Int) -> String {
      var padded = lines
      let entry = lines[1]
      padded[1] = "{" + String(repeating: " ", count: length - entry.utf8.count) + entry.dropFirst()
      return padded.joined(separator: "\n") + "\n"
    }
    let atTheLimit = try verdicts(padded(to: AuditExport.maximumLineBytes), in: fixture, key: log.publicKey)
    #expect(atTheLimit.swift == nil && atTheLimit.model == nil, "\(atTheLimit.modelSays)")
    let overIt = try verdicts(padded(to: AuditExport.maximumLineBytes + 1), in: fixture, key: log.publicKey)
    #expect(overIt.swift == 2 && overIt.model == 2, "\(overIt.modelSays)")
  }

  @Test func anExportCutBeforeItsFooterNamesTheMissingSeq() throws {
    let fixture = LogFixture()
    let log = try fixture.open()
    try log.append((1...20).map { record($0) })
    var lines = try export(log)
    lines.remove(at: lines.count - 2)
    let cut = try #require(AuditExport.verify(lines: lines, publicKey: log.publicKey).failure)
    #expect(cut.seq == 20 && cut.line == 21, "\(cut)")
    #expect(cut.reason.contains("entry 20 is missing"), "\(cut)")

    lines.removeLast()
    let noFooter = try #require(AuditExport.verify(lines: lines, publicKey: log.publicKey).failure)
    #expect(noFooter.seq == 20, "\(noFooter)")
    #expect(noFooter.reason.contains("after seq 19 of the 20"), "\(noFooter)")
  }
}

extension AuditModelAgreementTests {
  /// An export of entries an inspector chose: those disclosed whole, every other one a stub,
  /// the header saying the selection in words; both verifiers take it as one chain. A header
  /// that names a scope and a selection both is read by neither.
  @Test func aSelectionExportVerifiesWithStubsInBoth() throws {
    let (fixture, log) = try hostileLog()
    let chosen: Set<Int64> = [2, 3, 7, Int64(Self.hostileTexts.count)]
    var lines: [String] = []
    try log.exportAudit(format: .jsonl, selection: AuditSelection("user=\u{1B}[31m \"q\" text=é") { chosen.contains($0.seq) }) {
      lines.append($0)
    }
    let stubs = lines.filter { $0.hasPrefix(#"{"type":"stub""#) }
    #expect(stubs.count == Self.hostileTexts.count - chosen.count)
    #expect(lines[0].contains(#""selection":"#) && !lines[0].contains(#""scope":"#), "\(lines[0])")
    let both = try verdicts(lines.joined(separator: "\n") + "\n", in: fixture, key: log.publicKey)
    #expect(both.swift == nil && both.model == nil, "\(both)")
    #expect(both.modelSays == "ok \(chosen.count) \(stubs.count)")

    var twice = lines
    twice[0] = twice[0].replacingOccurrences(of: #""selection":"#, with: #""scope":"board","selection":"#)
    let refused = try verdicts(twice.joined(separator: "\n") + "\n", in: fixture, key: log.publicKey)
    #expect(refused.swift == 1 && refused.model == 1, "\(refused)")
  }
}
