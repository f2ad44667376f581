/// The command people type to use this client: `concord`, or an app's own program built on
/// Concord's command line (`shoplist`). Messages name it when they say what to run, ssh runs it
/// on a daemon's machine (unless `CONCORD_REMOTE_COMMAND` names another), and a window starts
/// it as the relay to a server.
///
/// ```swift
/// ProgramName.current = "shoplist"   // once, first thing in main
/// ClientError.unreachable("no socket").description
/// // daemon not running (no socket): start it with `shoplist daemon start`
/// ```
public enum ProgramName {
  /// Set once, before anything else runs (the command line does it); read everywhere after.
  nonisolated(unsafe) public static var current = "concord"

  /// The command ssh runs on a daemon's machine: `CONCORD_REMOTE_COMMAND`, else this program.
  public static func remoteCommand(_ environment: [String: String]) -> String {
    environment["CONCORD_REMOTE_COMMAND"].flatMap { $0.isEmpty ? nil : $0 } ?? current
  }
}
