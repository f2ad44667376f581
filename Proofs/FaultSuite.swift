import ArgumentParser
import DaemonDriving
import Foundation

/// Each fault on a fresh home: the disk filling up during a commit, the log made read-only, the
/// WAL deleted, a snapshot or an entry corrupted, the key wrong, missing or open to others, the
/// home owned by someone else, the clock stepped back. Each must end in a clear error or a
/// correct recovery — never in silent loss or a wrong state.
struct FaultSuite: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fault",
    abstract: "Inject faults one by one; each must give a clear error or a correct recovery.")

  @Option(help: "Run only the scenarios whose name contains this.") var only: String?

  func run() throws {
    let work = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: work) }
    let scenarios = FaultScenarios.all.filter { only == nil || $0.name.contains(only!) }
    print("fault suite: \(scenarios.count) scenarios under \(work.path)")
    var table = SummaryTable(["fault", "must give", "observed", "held"])
    var failures = 0
    var skipped = 0
    for scenario in scenarios {
      print("• \(scenario.name)…")
      let outcome: FaultScenario.Outcome
      do {
        outcome = try scenario.run(try FaultBench(work: work, name: scenario.name))
      } catch {
        outcome = .init(observed: "the scenario failed: \(error)", held: false)
      }
      print("  \(outcome.observed)")
      if outcome.skipped { skipped += 1 } else if !outcome.held { failures += 1 }
      table.add([scenario.name, scenario.expected, outcome.observed, outcome.skipped ? "skipped" : outcome.held ? "yes" : "NO"])
    }
    table.print()
    let shown = scenarios.count - skipped
    print(
      failures > 0
        ? "\n\(failures) FAULTS WERE NOT HANDLED"
        : "\nevery fault injected (\(shown) of \(scenarios.count)) gave a clear error or a correct recovery")
    if skipped > 0 { print("\(skipped) skipped: they need root (run the suite as root to show them)") }
    if failures > 0 { throw ExitCode(1) }
  }
}
