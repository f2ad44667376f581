import ConcordApp
import ConcordWire

extension Workspace {
  /// Rules for new actions only: limits Workspace set after entries that break them may already
  /// be in a log. The daemon refuses (and logs as refused) an action one of them names; replaying
  /// the log never asks them, so an older entry with a longer description still boots.
  ///
  /// ```swift
  /// Workspace.admission(.board(Authored(user: "ann", at: now, .label(id: 1, label: longText))))
  /// // "a label is at most 40 characters"
  /// ```
  public static func admission(_ action: Action) -> String? {
    guard case let .board(authored) = action else { return nil }
    switch authored.action {
    case let .editCard(_, _, description?) where description.count > Board.descriptionLimit:
      return "a description is at most \(Board.descriptionLimit.grouped) characters; this one has \(description.count.grouped)"
    case let .label(_, label) where label.count > Board.labelLimit:
      return "a label is at most \(Board.labelLimit) characters"
    default:
      return nil
    }
  }
}
