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
}
