import BundledApps
import ConcordCommandLine

/// `concordd`: the Concord daemon in the foreground, hosting Workspace (or the sample app, with
/// `--app sample`).
@main
enum ConcorddMain {
  static func main() { ConcordProgram.concord.runDaemon() }
}
