import ArgumentParser
import Foundation


/// The long suites that prove what Concord guarantees, each bounded in time and ending with a
/// summary table. They drive the release `concordd` built beside this program.
///
///     scripts/prove.sh crash            # 50 rounds of kill -9 under load
///     scripts/prove.sh fault            # disk full, read-only log, corrupt files, bad keys…
///     scripts/prove.sh soak --minutes 10
///     scripts/prove.sh hostile
@main
struct ProofSuites: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "concord-prove",
    abstract: "Prove the daemon's guarantees under crashes, faults, long load and hostile peers.",
    discussion: """
      Each suite starts the concordd built beside this program on homes under /tmp, prints
      what it does as it goes, and ends with a summary table. It exits with status 1 when a
      guarantee did not hold.
      """,
    subcommands: [CrashSuite.self, FaultSuite.self, SoakSuite.self, HostileSuite.self])
}
