import Concord
import Foundation

/// Throughput of the core, against plain-actor baselines measured in the same run.
///
///     swift run -c release concord-bench            # full run, about a minute
///     swift run -c release concord-bench --quick    # fewer operations, for a smoke test
///     swift run -c release concord-bench --only run  # only benchmarks whose name has "run"
@main
struct ConcordBenchmarks {
  static func main() async {
    let quick = CommandLine.arguments.contains("--quick")
    let arguments = CommandLine.arguments
    let only = arguments.firstIndex(of: "--only").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
    let harness = Harness(samples: quick ? 3 : 7, operations: quick ? 20_000 : 200_000, only: only)
    let taskHarness = Harness(samples: harness.samples, operations: harness.operations / 10, only: only)
    print("Concord core benchmarks (\(quick ? "quick" : "full") run; median of \(harness.samples) batches)\n")

    let actorCall = await harness.measure("plain actor call") { n in
      let counter = PlainCounter()
      for _ in 0..<n { await counter.increment() }
    }
    let actorTask = await taskHarness.measure("plain actor + one Task per call") { n in
      let counter = TaskSpawningCounter()
      for _ in 0..<n { await counter.incrementLater().value }
    }
    let handRolled = await taskHarness.measure("hand-rolled weak + cancellable Task") { n in
      let counter = HandRolledFeedback()
      for _ in 0..<n {
        let task = await counter.ping()
        await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
      }
    }
    let actorTaskOpen = await taskHarness.measure("actor + Task per call, pipelined") { n in
      let counter = TaskSpawningCounter()
      for _ in 0..<n { _ = await counter.incrementLater() }
      while await counter.count < n { await Task.yield() }
    }
    let trivial = await harness.measure("Store.send, trivial reducer") { n in
      let store = Store(initialState: 0, reducer: trivialReducer)
      for _ in 0..<n { await store.send(.increment) }
    }
    let syncFeedback = await harness.measure("Store.send, .send feedback") { n in
      let store = Store(initialState: 0, reducer: syncFeedbackReducer)
      for _ in 0..<n { await store.send(.ping) }
    }
    let asyncFeedback = await taskHarness.measure("Store.send, .run feedback") { n in
      let store = Store(initialState: 0, reducer: asyncFeedbackReducer)
      for _ in 0..<n { await store.send(.ping).finish() }
    }
    let asyncFeedbackOpen = await taskHarness.measure("Store.send, .run feedback, pipelined") { n in
      let store = Store(initialState: 0, reducer: asyncFeedbackReducer)
      for _ in 0..<n { await store.send(.ping) }
      while await store.state < n { await Task.yield() }
    }
    let nested = await harness.measure("Store.send, reducer 3 levels deep") { n in
      let store = Store(initialState: Level1(), reducer: nestedReducer)
      for _ in 0..<n { await store.send(.level2(.level3(.increment))) }
    }
    let scoped = await harness.measure("ScopedStore.send, 3 levels deep") { n in
      let store = Store(initialState: Level1(), reducer: nestedReducer)
      let leaf = store.scope(state: \.level2, action: \.level2)
        .scope(state: \.level3, action: \.level3)
      for _ in 0..<n { await leaf.send(.increment) }
    }

    let rows = [
      Comparison(measurement: trivial, baseline: actorCall, goal: 3),
      Comparison(measurement: syncFeedback, baseline: actorCall, goal: .infinity),
      Comparison(measurement: handRolled, baseline: actorTask, goal: .infinity),
      Comparison(measurement: asyncFeedback, baseline: actorTask, goal: 1.5),
      Comparison(measurement: asyncFeedbackOpen, baseline: actorTaskOpen, goal: 1.5),
      Comparison(measurement: nested, baseline: trivial, goal: .infinity),
      Comparison(measurement: scoped, baseline: trivial, goal: 1.5),
    ]
    print(pad("benchmark", 36), pad("ops/s", 12), pad("ns/op", 9), pad("baseline", 32), pad("ratio", 7), "goal")
    for baseline in [actorCall, actorTask, actorTaskOpen] {
      print(pad(baseline.name, 36), pad(rate(baseline), 12), pad(nanos(baseline), 9), pad("(baseline)", 32))
    }
    for row in rows {
      let goal = row.goal.isFinite ? "≤ \(format(row.goal))× \(row.meetsGoal ? "met" : "MISSED")" : "–"
      print(
        pad(row.measurement.name, 36), pad(rate(row.measurement), 12), pad(nanos(row.measurement), 9),
        pad(row.baseline.name, 32), pad(format(row.ratio) + "×", 7), goal)
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
