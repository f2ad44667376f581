/// Workspace: the collaborative task board with chat and presence that ships with Concord.
///
/// Only the namespace exists so far; its features will be reducers composed with `Concord`.
public enum Workspace {
  /// The application's name as recorded in the log.
  public static let name = "workspace"
}
