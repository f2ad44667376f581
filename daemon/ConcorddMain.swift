import BundledApps
import ConcordDaemonCommand

/// `concordd`: the Concord daemon in the foreground, hosting Workspace (or the sample app, with
/// `--app sample`), in concord's home.
@main
enum ConcorddMain {
  static func main() { DaemonProgram(name: "concordd", home: "concord", apps: BundledApps.all).run() }
}
