import ConcordDaemonCommand
import SampleApp
import Workspace
import WorkspaceWindows

/// The apps `concord` and `concordd` speak: Workspace, the collaborative task board, and the
/// small app of the daemon's end-to-end tests (`--app sample`, or `CONCORD_APP=sample`).
public enum BundledApps {
  public static var all: [ProgramApp] {
    [ProgramApp(Workspace.hosted(), client: Workspace.client), ProgramApp(SampleApp.hosted, client: SampleApp.client)]
  }
}
