import DaemonDriving
import Foundation
import Testing

/// docs/decisions keeps one short record a decision, each in the same four parts, so that a
/// reader who wonders "why is it like this?" finds the answer, what it costs and the evidence.
@Suite struct DecisionRecordsTests {
  static let parts = ["## Context", "## Decision", "## Consequences", "## Measurement"]

  static func records() throws -> [String] {
    let folder = Repository.root.appending(path: "docs/decisions")
    return try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.firstMatch(of: /^\d\d+-.+\.md$/) != nil }.sorted()
  }

  /// Each record: a title, then context, decision, consequences and measurement, in that order,
  /// none of them empty.
  @Test func everyRecordHasItsFourPartsInOrder() throws {
    let records = try Self.records()
    #expect(records.count >= 39, "only \(records.count) records")
    var wrong: [String] = []
    for record in records {
      let text = try String(
        contentsOf: Repository.root.appending(path: "docs/decisions/\(record)"), encoding: .utf8)
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      guard lines.first?.hasPrefix("# ") == true else {
        wrong.append("\(record): no title on its first line")
        continue
      }
      let headings = lines.filter { $0.hasPrefix("## ") }
      if headings != Self.parts {
        wrong.append("\(record): sections \(headings), not \(Self.parts)")
        continue
      }
      // Each part says something: text between its heading and the next.
      for (index, part) in Self.parts.enumerated() {
        let start = lines.firstIndex(of: part)! + 1
        let end = index + 1 < Self.parts.count ? lines.firstIndex(of: Self.parts[index + 1])! : lines.count
        if lines[start..<end].allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
          wrong.append("\(record): \(part) is empty")
        }
      }
    }
    #expect(wrong.isEmpty, "\(wrong.joined(separator: "\n"))")
  }

  /// The index lists every record, so none is written and then lost.
  @Test func theIndexListsEveryRecord() throws {
    let index = try String(
      contentsOf: Repository.root.appending(path: "docs/decisions/README.md"), encoding: .utf8)
    let unlisted = try Self.records().filter { !index.contains("(\($0))") }
    #expect(unlisted.isEmpty, "not in docs/decisions/README.md: \(unlisted)")
  }
}
