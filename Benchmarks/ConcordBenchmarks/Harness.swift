import Foundation

/// A small benchmark harness: runs an operation in batches, keeps the median time per operation.
struct Measurement {
  let name: String
  let nanosecondsPerOperation: Double

  var operationsPerSecond: Double { 1e9 / nanosecondsPerOperation }
}

struct Harness {
  /// How many batches to time; the median is reported.
  var samples = 7
  /// Operations per batch.
  var operations = 200_000
  /// When set, benchmarks whose name lacks this text run a single tiny batch instead. A
  /// trailing `$` asks for the whole name, and `|` separates alternatives:
  /// `--only 'Store.send, .run feedback$|plain actor + one Task per call'`.
  var only: String?

  /// Times `body(operations)` `samples` times after one warm-up batch. Each batch runs in a
  /// detached task, off the main actor, like any client of a store.
  func measure(_ name: String, _ body: @escaping @Sendable (Int) async -> Void) async -> Measurement {
    let clock = ContinuousClock()
    let selected = only.map { only in
      only.split(separator: "|").contains { pattern in
        pattern.hasSuffix("$")
          ? name.lowercased() == pattern.dropLast().lowercased()
          : name.localizedCaseInsensitiveContains(pattern)
      }
    } ?? true
    let operations = selected ? self.operations : 10
    let samples = selected ? self.samples : 1
    await Task.detached { await body(max(1, operations / 10)) }.value
    var timings: [Double] = []
    for _ in 0..<samples {
      let elapsed = await Task.detached { await clock.measure { await body(operations) } }.value
      let nanoseconds =
        Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
      timings.append(nanoseconds / Double(operations))
    }
    timings.sort()
    return Measurement(name: name, nanosecondsPerOperation: timings[timings.count / 2])
  }
}

/// A row of the report: a measurement, the baseline it is compared to, and the goal for the ratio.
struct Comparison {
  let measurement: Measurement
  let baseline: Measurement
  let goal: Double

  var ratio: Double { measurement.nanosecondsPerOperation / baseline.nanosecondsPerOperation }
  var meetsGoal: Bool { ratio <= goal }
}
