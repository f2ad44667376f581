import ConcordApp
import ConcordWire

extension Workspace {
  /// Rules for new actions only (limits, and no control characters in text), which entries
  /// already in a log may break. The daemon refuses (and logs as refused) an action one of them names; replaying
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
      return admissionProblem(title, "a title", characters: Board.titleLimit) ?? column.flatMap { admissionProblem($0, "a column's name", characters: Board.nameLimit) }
    case let .editCard(_, title, description):
      return title.flatMap { admissionProblem($0, "a title", characters: Board.titleLimit) }
        ?? description.flatMap { admissionProblem($0, "a description", characters: Board.descriptionLimit, keepsLines: true) }
    case let .label(_, label), let .unlabel(_, label):
      return admissionProblem(label, "a label", characters: Board.labelLimit)
    case let .addColumn(name, _), let .removeColumn(name), let .moveColumn(name, _), let .limitColumn(name, _):
      return admissionProblem(name, "a column's name", characters: Board.nameLimit)
    case let .renameColumn(name, newName):
      return admissionProblem(name, "a column's name", characters: Board.nameLimit) ?? admissionProblem(newName, "a column's name", characters: Board.nameLimit)
    case let .moveCard(_, column, _):
      return admissionProblem(column, "a column's name", characters: Board.nameLimit)
    case let .invite(user), let .join(user), let .assign(_, user?):
      return admissionProblem(user, "a name", characters: Board.nameLimit)
    case .assign, .setDue, .archive, .restore, .undo, .redo, .dismissReminder:
      return nil
    }
  }

  private static func chatAdmission(_ action: ChatAction) -> String? {
    switch action {
    case let .say(channel, text), let .edit(channel, _, text):
      return admissionProblem(channel, "a channel's name", characters: Board.nameLimit) ?? admissionProblem(text, "a message", characters: Chat.messageLimit)
    case let .delete(channel, _), let .createChannel(channel):
      return admissionProblem(channel, "a channel's name", characters: Board.nameLimit)
    }
  }

  /// Why `text` cannot be taken as `what`, if it cannot: it holds a control character (an
  /// escape, a bell, a newline — a description may keep newlines and tabs), which would act on
  /// the terminals of everyone who sees it; or it is too long in bytes for a text of at most
  /// `characters` characters. Windows draw controls as signs whatever an older entry holds
  /// (``InertText``); this keeps new ones out.
  private static func admissionProblem(_ text: String, _ what: String, characters: Int, keepsLines: Bool = false) -> String? {
    if let control = InertText.firstControl(in: text, allowing: keepsLines ? ["\n", "\t"] : []) {
      return "\(what) cannot hold control characters (it has \(InertText.name(of: control))): they would act on the terminals of everyone who sees it"
    }
    let bytes = text.utf8.count
    let limit = characters * bytesPerCharacter
    guard bytes > limit else { return nil }
    return "\(what) is at most \(limit.grouped) bytes of UTF-8 (\(characters.grouped) characters of \(bytesPerCharacter) bytes at most); this one has \(bytes.grouped)"
  }
}
