import DaemonDriving
import Foundation
import Testing

/// What the benchmarks and proof suites print is kept by the tool that ran them
/// (`scripts/record.sh`): a file a run, named by its date and commit, with the measure's exit
/// status kept too, and an index that names each measure's latest run.
@Suite struct RecordedResultsTests {
  static let script = Repository.root.appending(path: "scripts/record.sh").path

  static func record(_ measure: String, _ shell: String, in folder: URL) throws -> (status: Int32, output: String) {
    var environment = ProcessInfo.processInfo.environment
    environment["CONCORD_RESULTS"] = folder.path
    return try Spawn.run(Self.script, [measure, "/bin/sh", "-c", shell], environment: environment, output: .capture)
  }

  @Test func eachRunIsKeptByDateAndCommitAndTheIndexNamesTheLatest() throws {
    let folder = URL(filePath: NSTemporaryDirectory()).appending(path: "results-\(UUID().uuidString.prefix(8))")
    defer { try? FileManager.default.removeItem(at: folder) }
    let commit = try Spawn.run("/usr/bin/git", ["-C", Repository.root.path, "rev-parse", "--short=10", "HEAD"], output: .capture)
      .output.trimmingCharacters(in: .whitespacesAndNewlines)

    // A measure that fails still says so, and its figures are kept.
    let first = try Self.record("demo", "echo 'acks/s 2690'; exit 3", in: folder)
    #expect(first.status == 3 && first.output.contains("acks/s 2690"))
    Thread.sleep(forTimeInterval: 1.1)
    let second = try Self.record("demo", "echo 'acks/s 2750'", in: folder)
    #expect(second.status == 0)

    let runs = try FileManager.default.contentsOfDirectory(atPath: folder.appending(path: "demo").path).sorted()
    #expect(runs.count == 2, "\(runs)")
    let today = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
    for run in runs { #expect(run.hasPrefix(today) && run.contains(commit) && run.hasSuffix(".txt"), "\(run)") }
    let kept = try String(contentsOf: folder.appending(path: "demo/\(runs[0])"), encoding: .utf8)
    #expect(kept.contains("exit status: 3") && kept.contains("acks/s 2690") && kept.contains("commit: \(commit)"), "\(kept)")

    let index = try String(contentsOf: folder.appending(path: "README.md"), encoding: .utf8)
    #expect(index.contains("| demo | [\(runs[1])](demo/\(runs[1])) | 2 |"), "\(index)")
  }

  @Test func helpIsNoResult() throws {
    let folder = URL(filePath: NSTemporaryDirectory()).appending(path: "results-\(UUID().uuidString.prefix(8))")
    defer { try? FileManager.default.removeItem(at: folder) }
    var environment = ProcessInfo.processInfo.environment
    environment["CONCORD_RESULTS"] = folder.path
    let ran = try Spawn.run(Self.script, ["demo", "/bin/echo", "--help"], environment: environment, output: .capture)
    #expect(ran.status == 0 && ran.output.contains("--help"))
    #expect(!FileManager.default.fileExists(atPath: folder.path))
  }
}
