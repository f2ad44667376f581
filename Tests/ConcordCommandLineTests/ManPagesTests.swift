import DaemonDriving
import Foundation
import Testing

/// The man pages in docs/man are the ones the commands' definitions make today: a subcommand
/// without a page, a page of one that is gone, or a page whose text the definitions no longer
/// give fails here. `scripts/man.sh` writes them anew.
@Suite struct ManPagesTests {
  /// swift-argument-parser's generator, built beside the binaries (scripts/test.sh builds it).
  static let generator = DaemonUnderTest.binary.deletingLastPathComponent().appending(path: "generate-manual")

  @Test(arguments: ["concord", "concordd"])
  func everyCommandHasItsPageAsItsDefinitionGivesIt(tool: String) throws {
    #expect(
      FileManager.default.isExecutableFile(atPath: Self.generator.path),
      "no \(Self.generator.path): `swift build --product generate-manual` (scripts/test.sh does)")
    let committed = Repository.root.appending(path: "docs/man/\(tool)")
    let pages = try FileManager.default.contentsOfDirectory(atPath: committed.path).filter { $0.hasSuffix(".1") }.sorted()
    #expect(pages.contains("\(tool).1"), "docs/man/\(tool) has no \(tool).1: run scripts/man.sh")

    // Generated again on the day the committed pages say, so that only the text can differ.
    let day = try Self.day(of: committed.appending(path: "\(tool).1"))
    let fresh = URL(filePath: NSTemporaryDirectory()).appending(path: "man-\(tool)-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: fresh, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: fresh) }
    let generated = try Spawn.run(
      Self.generator.path,
      [DaemonUnderTest.binary.deletingLastPathComponent().appending(path: tool).path, "--multi-page", "--date", day,
       "--output-directory", fresh.path], output: .capture)
    #expect(generated.status == 0, "\(generated.output)")
    let expected = try FileManager.default.contentsOfDirectory(atPath: fresh.path).sorted()

    #expect(Set(expected).subtracting(pages).isEmpty, "without a page: \(Set(expected).subtracting(pages).sorted()); run scripts/man.sh")
    #expect(Set(pages).subtracting(expected).isEmpty, "a page of no command: \(Set(pages).subtracting(expected).sorted()); run scripts/man.sh")
    for page in expected where pages.contains(page) {
      let now = try String(contentsOf: fresh.appending(path: page), encoding: .utf8)
      let kept = try String(contentsOf: committed.appending(path: page), encoding: .utf8)
      #expect(now == kept, "docs/man/\(tool)/\(page) is stale: run scripts/man.sh")
    }
  }

  /// The `.Dd` date of a page ("December 7, 2026") as the generator takes it (2026-12-07).
  static func day(of page: URL) throws -> String {
    let text = try String(contentsOf: page, encoding: .utf8)
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(".Dd ") }) else {
      throw DriveError("\(page.lastPathComponent) has no .Dd line")
    }
    let reading = DateFormatter()
    reading.locale = Locale(identifier: "en_US_POSIX")
    reading.timeZone = TimeZone(identifier: "UTC")
    reading.dateFormat = "MMMM d, yyyy"
    guard let date = reading.date(from: String(line.dropFirst(4))) else { throw DriveError("cannot read \(line)") }
    let writing = DateFormatter()
    writing.locale = reading.locale
    writing.timeZone = reading.timeZone
    writing.dateFormat = "yyyy-MM-dd"
    return writing.string(from: date)
  }
}
