import Foundation

/// The time per operation of one benchmark: the median over its batches.
struct Measurement {
  let name: String
  let nanosecondsPerOperation: Double

  var operationsPerSecond: Double { 1e9 / nanosecondsPerOperation }
}

/// A benchmark: a name and a body that performs `n` operations.
struct Benchmark: Sendable {
  let name: String
  let body: @Sendable (Int) async -> Void

  init(_ name: String, _ body: @escaping @Sendable (Int) async -> Void) {
    self.name = name
    self.body = body
  }
}

/// A row of the report: a benchmark timed against its baseline, and the goal for the ratio.
struct Comparison {
  let measurement: Measurement
  let baseline: Measurement
  /// The median of the ratios of batches timed back to back, so that the machine's drift from
  /// one second to the next (which on a shared two-core VM moves both by ±15%) cancels out.
  let ratio: Double
  let goal: Double

  var meetsGoal: Bool { ratio <= goal }
}

/// A small benchmark harness. It times a benchmark and its baseline in alternating batches,
/// taking turns to go first, and reports the median time of each and the median of their
/// batch-by-batch ratios.
struct Harness {
  /// How many pairs of batches to time.
  var samples = 7
  /// Operations per batch.
  var operations = 200_000
  /// When set, benchmarks whose name lacks this text run a single tiny batch instead. A
  /// trailing `$` asks for the whole name, and `|` separates alternatives:
  /// `--only 'Store.send, .run feedback$|pipelined'`. Baselines are not named here: each runs
  /// with the benchmarks measured against it.
  var only: String?

  func isSelected(_ name: String) -> Bool {
    guard let only else { return true }
    return only.split(separator: "|").contains { pattern in
      pattern.hasSuffix("$")
        ? name.lowercased() == pattern.dropLast().lowercased()
        : name.localizedCaseInsensitiveContains(pattern)
    }
  }

  /// Times `subject` against `baseline`; see ``Comparison/ratio``.
  func compare(_ subject: Benchmark, against baseline: Benchmark, goal: Double = .infinity) async
    -> Comparison
  {
    let selected = isSelected(subject.name)
    let operations = selected ? self.operations : 10
    let samples = selected ? self.samples : 1
    for benchmark in [baseline, subject] {
      await Task.detached { await benchmark.body(max(1, operations / 10)) }.value
    }
    var baselineTimes: [Double] = []
    var subjectTimes: [Double] = []
    var ratios: [Double] = []
    for round in 0..<samples {
      var pair: [String: Double] = [:]
      for benchmark in round.isMultiple(of: 2) ? [baseline, subject] : [subject, baseline] {
        pair[benchmark.name] = await time(benchmark, operations: operations)
      }
      let baselineTime = pair[baseline.name]!
      let subjectTime = pair[subject.name]!
      baselineTimes.append(baselineTime)
      subjectTimes.append(subjectTime)
      ratios.append(subjectTime / baselineTime)
    }
    return Comparison(
      measurement: Measurement(name: subject.name, nanosecondsPerOperation: median(subjectTimes)),
      baseline: Measurement(name: baseline.name, nanosecondsPerOperation: median(baselineTimes)),
      ratio: median(ratios),
      goal: goal)
  }

  /// Nanoseconds per operation of one batch, run in a detached task, off the main actor, like any
  /// client of a store.
  private func time(_ benchmark: Benchmark, operations: Int) async -> Double {
    let clock = ContinuousClock()
    let elapsed = await Task.detached { await clock.measure { await benchmark.body(operations) } }.value
    let nanoseconds =
      Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    return nanoseconds / Double(operations)
  }

  private func median(_ values: [Double]) -> Double {
    values.sorted()[values.count / 2]
  }
}
