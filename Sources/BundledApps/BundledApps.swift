import ConcordCommandLine
import SampleApp
import Workspace
import WorkspaceWindows

extension ConcordProgram {
  /// `concord` and `concordd`: Workspace, the collaborative task board, and the small app of the
  /// daemon's end-to-end tests (`--app sample`, or `CONCORD_APP=sample`); the daemon is its own
  /// executable, `concordd`.
  public static var concord: ConcordProgram {
    ConcordProgram(
      name: "concord",
      apps: [ProgramApp(Workspace.hosted(), client: Workspace.client), ProgramApp(SampleApp.hosted, client: SampleApp.client)],
      daemonLaunch: .executable("concordd"),
      abstract: "Attach windows to a Concord daemon, send actions, and audit its log.")
  }
}
