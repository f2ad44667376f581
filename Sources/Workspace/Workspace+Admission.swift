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
    switch action {
    case let .board(authored): boardAdmission(authored.action)
    case let .chat(authored): chatAdmission(authored.action)
    case .presence, .reminders, .booted: nil
    }
  }

  /// How many bytes of UTF-8 a text may take for each character it may have. A character a
  /// person sees may be many code points (an emoji family, a letter under a pile of accents),
  /// so a limit in characters alone bounds nothing in bytes; sixteen each leaves room for any
  /// text people write.
  static let bytesPerCharacter = 16

  private static func boardAdmission(_ action: BoardAction) -> String? {
    switch action {
    case let .editCard(_, _, description?) where description.count > Board.descriptionLimit:
      return "a description is at most \(Board.descriptionLimit.grouped) characters; this one has \(description.count.grouped)"
    case let .label(_, label) where label.count > Board.labelLimit:
      return "a label is at most \(Board.labelLimit) characters"
    case let .addCard(title, column):
      return tooLong(title, "a title", characters: Board.titleLimit) ?? column.flatMap { tooLong($0, "a column's name", characters: Board.nameLimit) }
    case let .editCard(_, title, description):
      return title.flatMap { tooLong($0, "a title", characters: Board.titleLimit) }
        ?? description.flatMap { tooLong($0, "a description", characters: Board.descriptionLimit) }
    case let .label(_, label), let .unlabel(_, label):
      return tooLong(label, "a label", characters: Board.labelLimit)
    case let .addColumn(name, _), let .removeColumn(name), let .moveColumn(name, _), let .limitColumn(name, _):
      return tooLong(name, "a column's name", characters: Board.nameLimit)
    case let .renameColumn(name, newName):
      return tooLong(name, "a column's name", characters: Board.nameLimit) ?? tooLong(newName, "a column's name", characters: Board.nameLimit)
    case let .moveCard(_, column, _):
      return tooLong(column, "a column's name", characters: Board.nameLimit)
    case let .invite(user), let .join(user), let .assign(_, user?):
      return tooLong(user, "a name", characters: Board.nameLimit)
    case .assign, .setDue, .archive, .restore, .undo, .redo, .dismissReminder:
      return nil
    }
  }

  private static func chatAdmission(_ action: ChatAction) -> String? {
    switch action {
    case let .say(channel, text), let .edit(channel, _, text):
      return tooLong(channel, "a channel's name", characters: Board.nameLimit) ?? tooLong(text, "a message", characters: Chat.messageLimit)
    case let .delete(channel, _), let .createChannel(channel):
      return tooLong(channel, "a channel's name", characters: Board.nameLimit)
    }
  }

  /// Why `text` is too long in bytes for a text of at most `characters` characters, if it is.
  private static func tooLong(_ text: String, _ what: String, characters: Int) -> String? {
    let bytes = text.utf8.count
    let limit = characters * bytesPerCharacter
    guard bytes > limit else { return nil }
    return "\(what) is at most \(limit.grouped) bytes of UTF-8 (\(characters.grouped) characters of \(bytesPerCharacter) bytes at most); this one has \(bytes.grouped)"
  }
}
