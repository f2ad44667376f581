import DaemonDriving
import Foundation
import Testing

/// `docs/your-first-app.md` cannot rot: its code blocks (` ```swift file=PATH `) are the
/// starter's files, `Examples/ShopList`, byte for byte, and every file of the starter is on the
/// page — the end-to-end test runs that code.
@Suite struct TutorialCodeTests {
  static let root = Repository.root

  /// The page's blocks that name a file: path → text.
  static func blocks(of page: String) -> [String: String] {
    var blocks: [String: String] = [:]
    var current: (path: String, lines: [Substring])?
    for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
      if let open = current {
        if line == "```" {
          blocks[open.path] = open.lines.joined(separator: "\n") + "\n"
          current = nil
        } else {
          current?.lines.append(line)
        }
      } else if line.hasPrefix("```"), let file = line.split(separator: " ").first(where: { $0.hasPrefix("file=") }) {
        current = (String(file.dropFirst("file=".count)), [])
      }
    }
    return blocks
  }

  /// The starter's own files: its manifest and its sources.
  static func starterFiles() throws -> [String: String] {
    let starter = root.appending(path: "Examples/ShopList")
    var files = ["Package.swift": try String(contentsOf: starter.appending(path: "Package.swift"), encoding: .utf8)]
    let sources = starter.appending(path: "Sources")
    for case let url as URL in FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
    where url.pathExtension == "swift" {
      let path = "Sources/" + url.standardized.path.dropFirst(sources.standardized.path.count + 1)
      files[path] = try String(contentsOf: url, encoding: .utf8)
    }
    return files
  }

  @Test func theTutorialsCodeIsTheStartersCode() throws {
    let page = try String(contentsOf: Self.root.appending(path: "docs/your-first-app.md"), encoding: .utf8)
    let blocks = Self.blocks(of: page)
    let files = try Self.starterFiles()
    #expect(Set(blocks.keys) == Set(files.keys), "the page shows \(blocks.keys.sorted()); the starter has \(files.keys.sorted())")
    for (path, text) in files {
      #expect(blocks[path] == text, "\(path) differs between the page and the starter")
    }
  }

  /// The starter is as small as it says: at most 150 lines of app code.
  @Test func theStarterIsAtMost150LinesOfAppCode() throws {
    let lines = try Self.starterFiles().filter { $0.key.hasPrefix("Sources/") }.values.map { $0.split(separator: "\n").count }
    #expect(lines.reduce(0, +) <= 150, "\(lines.reduce(0, +)) lines")
  }

  /// The reader of the page finds what it points to.
  @Test func theBlocksReaderFindsEveryFileBlockAndOnlyThose() {
    let page = "text\n```swift file=A.swift\nlet a = 1\n```\n```sh\nls\n```\n```swift file=B/C.swift\n\n// b\n```\n"
    #expect(Self.blocks(of: page) == ["A.swift": "let a = 1\n", "B/C.swift": "\n// b\n"])
  }
}
