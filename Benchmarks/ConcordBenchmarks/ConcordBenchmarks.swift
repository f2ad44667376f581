import Concord
import Foundation

/// Throughput of the core, against plain-actor baselines measured in the same run.
///
///     swift run -c release concord-bench            # full run, about a minute
///     swift run -c release concord-bench --quick    # fewer operations, for a smoke test
///     swift run -c release concord-bench --only run  # only benchmarks whose name has "run"
///     swift run -c release concord-bench --only 'trivial|pipelined'  # either name
@main
struct ConcordBenchmarks {
  static func main() async {
    let quick = CommandLine.arguments.contains("--quick")
    let arguments = CommandLine.arguments
    let only = arguments.firstIndex(of: "--only").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
    let harness = Harness(samples: quick ? 3 : 7, operations: quick ? 20_000 : 200_000, only: only)
    // Effects start tasks: fewer operations a batch, more batches, as their figures move more.
    let taskHarness = Harness(samples: quick ? 5 : 25, operations: harness.operations / 10, only: only)
    print(
      "Concord core benchmarks (\(quick ? "quick" : "full") run; each against its baseline in",
      "alternating batches, \(harness.samples) pairs, or \(taskHarness.samples) where tasks start;",
      "medians)\n")

    let actorCall = Benchmark("plain actor call") { n in
      let counter = PlainCounter()
      for _ in 0..<n { await counter.increment() }
    }
    let actorTask = Benchmark("plain actor + one Task per call") { n in
      let counter = TaskSpawningCounter()
      for _ in 0..<n { await counter.incrementLater().value }
    }
    let actorTaskPipelined = Benchmark("actor + Task per call, pipelined") { n in
      let counter = TaskSpawningCounter()
      for _ in 0..<n { _ = await counter.incrementLater() }
      while await counter.count < n { await Task.yield() }
    }
    let handRolled = Benchmark("hand-rolled weak + cancellable Task") { n in
      let counter = HandRolledFeedback()
      for _ in 0..<n {
        let task = await counter.ping()
        await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
      }
    }
    let trivial = Benchmark("Store.send, trivial reducer") { n in
      let store = Store(initialState: 0, reducer: trivialReducer)
      for _ in 0..<n { await store.send(.increment) }
    }
    let syncFeedback = Benchmark("Store.send, .send feedback") { n in
      let store = Store(initialState: 0, reducer: syncFeedbackReducer)
      for _ in 0..<n { await store.send(.ping) }
    }
    let asyncFeedback = Benchmark("Store.send, .run feedback") { n in
      let store = Store(initialState: 0, reducer: asyncFeedbackReducer)
      for _ in 0..<n { await store.send(.ping).finish() }
    }
    let asyncFeedbackPipelined = Benchmark("Store.send, .run feedback, pipelined") { n in
      let store = Store(initialState: 0, reducer: asyncFeedbackReducer)
      for _ in 0..<n { await store.send(.ping) }
      while await store.state < n { await Task.yield() }
    }
    let nested = Benchmark("Store.send, reducer 3 levels deep") { n in
      let store = Store(initialState: Level1(), reducer: nestedReducer)
      for _ in 0..<n { await store.send(.level2(.level3(.increment))) }
    }
    let scoped = Benchmark("ScopedStore.send, 3 levels deep") { n in
      let store = Store(initialState: Level1(), reducer: nestedReducer)
      let leaf = store.scope(state: \.level2, action: \.level2)
        .scope(state: \.level3, action: \.level3)
      for _ in 0..<n { await leaf.send(.increment) }
    }

    var rows: [Comparison] = []
    rows.append(await harness.compare(trivial, against: actorCall, goal: 3))
    rows.append(await harness.compare(syncFeedback, against: actorCall))
    rows.append(await taskHarness.compare(handRolled, against: actorTask))
    rows.append(await taskHarness.compare(asyncFeedback, against: actorTask, goal: 1.5))
    rows.append(await taskHarness.compare(asyncFeedbackPipelined, against: actorTaskPipelined, goal: 1.5))
    rows.append(await harness.compare(nested, against: trivial))
    rows.append(await harness.compare(scoped, against: trivial, goal: 1.5))

    print(
      pad("benchmark", 38), pad("ops/s", 10), pad("ns/op", 7), pad("baseline", 34), pad("ns/op", 7),
      pad("ratio", 7), "goal")
    for row in rows {
      let goal = row.goal.isFinite ? "≤ \(format(row.goal))× \(row.meetsGoal ? "met" : "MISSED")" : "–"
      print(
        pad(row.measurement.name, 38), pad(rate(row.measurement), 10), pad(nanos(row.measurement), 7),
        pad(row.baseline.name, 34), pad(nanos(row.baseline), 7), pad(format(row.ratio) + "×", 7), goal)
    }
  }

  static func rate(_ measurement: Measurement) -> String {
    let perSecond = measurement.operationsPerSecond
    return perSecond >= 1e6 ? format(perSecond / 1e6) + " M" : format(perSecond / 1e3) + " k"
  }

  static func nanos(_ measurement: Measurement) -> String {
    format(measurement.nanosecondsPerOperation)
  }

  static func format(_ value: Double) -> String {
    String(format: value >= 100 ? "%.0f" : "%.2f", value)
  }

  static func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
  }
}
