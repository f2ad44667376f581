import BundledApps
import ConcordCommandLine

/// `concord`: windows, actions and audit on a Concord daemon hosting Workspace (or the sample
/// app, with `CONCORD_APP=sample`).
@main
enum ConcordMain {
  static func main() { ConcordProgram.concord.run() }
}
