import IssueReporting
import Synchronization

/// Collects the issues a test store reports, instead of failing the test, so a test can assert
/// what a failing test would have said.
final class IssueCollector: IssueReporter, Sendable {
  private let messages = Mutex<[String]>([])

  var all: [String] { messages.withLock { $0 } }

  func reportIssue(
    _ message: @autoclosure () -> String?, severity: IssueSeverity,
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {
    let text = message() ?? ""
    messages.withLock { $0.append(text) }
  }
}

/// Runs `body` with its issues collected; returns them.
func collectingIssues(_ body: () async -> Void) async -> [String] {
  let collector = IssueCollector()
  await withIssueReporters([collector]) {
    await body()
  }
  return collector.all
}
