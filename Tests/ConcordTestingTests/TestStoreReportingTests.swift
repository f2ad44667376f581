import Concord
import ConcordTesting
import Testing

/// A TestStore failure must fail the test that runs it, not just print.
@Suite struct TestStoreReportingTests {
  @Test func aTestStoreFailureFailsTheSwiftTestingTest() async {
    await withKnownIssue {
      let store = TestStore(
        initialState: 0, reducer: Reducer<Int, Int, Void> { count, add, _ in
          count += add
          return .none
        })
      await store.send(1) { $0 = 2 }
    } matching: { issue in
      issue.description.contains("A state change does not match expectation")
    }
  }
}
