import DaemonDriving
import Foundation
import Testing

/// The repository stands on its own: a clone builds, tests and benchmarks everything it speaks
/// of, so no file it keeps names a place beside it (the folder it was once developed next to).
@Suite struct StandsAloneTests {
  @Test func noFileNamesAPlaceOutsideTheRepository() throws {
    let listed = try Spawn.run("/usr/bin/git", ["-C", Repository.root.path, "ls-files", "-z"], output: .capture)
    #expect(listed.status == 0)
    let files = listed.output.split(separator: "\0").map(String.init)
    #expect(files.count > 100, "git ls-files listed \(files.count) files")
    // Spelled in two parts, so that this file does not name it.
    let outside = ".." + "/shared"
    var naming: [String] = []
    for file in files {
      guard let text = try? String(contentsOf: Repository.root.appending(path: file), encoding: .utf8) else { continue }
      if text.contains(outside) { naming.append(file) }
    }
    #expect(naming.isEmpty, "these name \(outside): \(naming)")
  }

  /// Every relative link of the README and the pages under docs/ (and the architecture page, and
  /// the results' index) leads to a file of the repository.
  @Test func everyRelativeLinkOfTheDocsLeadsSomewhere() throws {
    let root = Repository.root
    var pages = ["README.md", "ARCHITECTURE.md", "results/README.md"]
    if let walker = FileManager.default.enumerator(atPath: root.appending(path: "docs").path) {
      for case let path as String in walker where path.hasSuffix(".md") { pages.append("docs/" + path) }
    }
    let link = /\]\(([^)\s]+)\)/
    var broken: [String] = []
    var checked = 0
    for page in pages {
      guard let text = try? String(contentsOf: root.appending(path: page), encoding: .utf8) else { continue }
      let folder = root.appending(path: page).deletingLastPathComponent()
      for match in text.matches(of: link) {
        let target = String(match.1)
        // Addresses (https:, mailto:) and anchors within the page are not files.
        if target.hasPrefix("#") || target.firstMatch(of: /^[a-z]+:/) != nil { continue }
        let path = String(target.split(separator: "#", maxSplits: 1)[0])
        checked += 1
        if !FileManager.default.fileExists(atPath: folder.appending(path: path).standardized.path) {
          broken.append("\(page): \(target)")
        }
      }
    }
    #expect(checked > 0, "no relative link was found to check")
    #expect(broken.isEmpty, "links to nothing: \(broken)")
  }

  /// The README is a front door: what Concord is, the demo, the two commands, a tour, the
  /// guarantees and where to go next; the rest lives under docs/ by purpose.
  @Test func theReadmeFitsOnAFewScreens() throws {
    let readme = try String(contentsOf: Repository.root.appending(path: "README.md"), encoding: .utf8)
    let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count
    #expect(lines <= 250, "README.md has \(lines) lines: move the detail to docs/")
  }
}
