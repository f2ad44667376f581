import DaemonDriving
import Foundation
import Testing

/// An auditor opens a CSV export with the tools they have: Python's `csv` module and SQLite's
/// `.import` read it as a table whose columns are named by its first line; the signed header
/// and footer wait in FILE.meta.jsonl beside it, and with them the independent model verifies
/// the rows.
@Suite struct CSVExportTests {
  @Test func aCSVExportIsATableToPythonAndSQLiteAndVerifiesWithItsMetadata() throws {
    let daemon = try DaemonUnderTest().start()
    for _ in 1...4 { try ConcordCLI.run(["send", "counter", "inc"], home: daemon.home) }
    try ConcordCLI.run(["send", "notes", #"{"add":{"text":"=1+1, \"quoted\"\nand a second line"}}"#], home: daemon.home)
    _ = daemon.terminate()
    let csv = daemon.home.appending(path: "audit.csv").path
    let exported = try ConcordCLI.run(["log", "export", "--format", "csv", "-o", csv], home: daemon.home)
    try #require(exported.status == 0, "\(exported.error)")
    let metadata = try String(contentsOfFile: csv + ".meta.jsonl", encoding: .utf8).split(separator: "\n")
    #expect(metadata.count == 2)
    #expect(metadata.first?.hasPrefix(#"{"type":"header""#) == true && metadata.last?.hasPrefix(#"{"type":"footer""#) == true)
    for file in [csv, csv + ".meta.jsonl"] {
      let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
      #expect(mode == 0o600, "\(file)")
    }

    // Python's csv module: a header row, then one dict per entry, text exactly as typed (after
    // the one leading quote the formula guard adds).
    let python = try Self.tool(
      "python3",
      [
        "-c",
        """
        import csv, sys
        rows = list(csv.DictReader(open(sys.argv[1], newline="")))
        note = [r for r in rows if r["scope"] == "notes"][0]
        print(len(rows), rows[0]["seq"], note["action"])
        """,
        csv,
      ])
    #expect(python.status == 0, "\(python.error)")
    #expect(python.output.hasPrefix("6 1 "), "\(python.output)")
    #expect(python.output.contains(#"=1+1, \"quoted\"\nand a second line"#), "\(python.output)")

    // SQLite's .import: the first line names the columns of a new table.
    let sqlite = try Self.tool(
      "sqlite3", [":memory:", "-cmd", ".import --csv \(csv) entries", "SELECT count(*), min(seq), max(seq) FROM entries"])
    #expect(sqlite.status == 0, "\(sqlite.error)")
    #expect(sqlite.output.trimmingCharacters(in: .whitespacesAndNewlines) == "6|1|6", "\(sqlite.output)")

    // The independent verifier checks the rows against the signed footer.
    let key = try String(contentsOf: daemon.home.appending(path: "log.sqlite.pub"), encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let model = try Self.tool("python3", [Self.model.path, "--csv", "--public-key", key, csv])
    #expect(model.output.hasPrefix("ok 6 0"), "\(model.output) \(model.error)")
  }

  /// A CSV export that cannot write its metadata fails, and leaves no decrypted file behind.
  @Test func aCSVExportThatCannotWriteItsMetadataLeavesNothingBehind() throws {
    let daemon = try DaemonUnderTest().start()
    try ConcordCLI.run(["send", "counter", "inc"], home: daemon.home)
    _ = daemon.terminate()
    let csv = daemon.home.appending(path: "audit.csv").path
    // Where the metadata would be written stands a directory.
    try FileManager.default.createDirectory(atPath: csv + ".meta.jsonl.partial", withIntermediateDirectories: false)
    let exported = try ConcordCLI.run(["log", "export", "--format", "csv", "-o", csv], home: daemon.home)
    #expect(exported.status == 1, "\(exported.error)")
    for left in [csv, csv + ".partial", csv + ".meta.jsonl"] {
      #expect(!FileManager.default.fileExists(atPath: left), "\(left) was left behind")
    }
  }

  /// Runs `program` (found on PATH) to its end.
  static func tool(_ program: String, _ arguments: [String]) throws -> ConcordCLI.Result {
    try ConcordCLI.runProgram(URL(filePath: "/usr/bin/env"), [program] + arguments)
  }

  static var model: URL {
    Repository.root.appending(path: "Tests/ConcordLogTests/audit_verify_model.py")
  }
}
