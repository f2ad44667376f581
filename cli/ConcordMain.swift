import BundledApps
import ConcordCommandLine

/// `concord`: windows, actions and audit on a Concord daemon hosting Workspace (or the sample
/// app, with `CONCORD_APP=sample`); its daemon is `concordd`.
@main
enum ConcordMain {
  static func main() {
    ConcordProgram(
      name: "concord", apps: BundledApps.all, daemonLaunch: .executable("concordd"),
      abstract: "Attach windows to a Concord daemon, send actions, and audit its log."
    ).run()
  }
}
