import Foundation

// The actions a window of a parameterized scope sends: the scope's parameter (the column, the
// card, the channel) is not repeated in them; the daemon adds it.

/// What a `column:NAME` window does to its column.
public enum ColumnAction: Codable, Equatable, Sendable {
  case addCard(title: String)
  /// Moves a card of the board into this column, at `position` (nil: the bottom).
  case moveCard(id: Int, position: Int?)
  /// The column's work-in-progress limit; nil for none.
  case limit(to: Int?)
  case rename(to: String)

  func boardAction(column: String) -> BoardAction {
    switch self {
    case let .addCard(title): .addCard(title: title, column: column)
    case let .moveCard(id, position): .moveCard(id: id, column: column, position: position)
    case let .limit(limit): .limitColumn(name: column, limit: limit)
    case let .rename(newName): .renameColumn(name: column, to: newName)
    }
  }
}

/// What a `card:ID` window does to its card.
public enum CardAction: Codable, Equatable, Sendable {
  case edit(title: String?, description: String?)
  case move(column: String, position: Int?)
  case assign(user: String?)
  case label(name: String)
  case unlabel(name: String)
  case setDue(due: Date?)
  case archive
  case restore
  /// Puts away the card's raised reminder.
  case dismissReminder

  func boardAction(card id: Int) -> BoardAction {
    switch self {
    case let .edit(title, description): .editCard(id: id, title: title, description: description)
    case let .move(column, position): .moveCard(id: id, column: column, position: position)
    case let .assign(user): .assign(id: id, user: user)
    case let .label(label): .label(id: id, label: label)
    case let .unlabel(label): .unlabel(id: id, label: label)
    case let .setDue(due): .setDue(id: id, due: due)
    case .archive: .archive(id: id)
    case .restore: .restore(id: id)
    case .dismissReminder: .dismissReminder(id: id)
    }
  }
}

/// What a `chat:NAME` window does in its channel.
public enum ChannelAction: Codable, Equatable, Sendable {
  case say(text: String)
  case edit(message: Int, text: String)
  case delete(message: Int)
  /// Opens another channel.
  case createChannel(name: String)

  func chatAction(channel: String) -> ChatAction {
    switch self {
    case let .say(text): .say(channel: channel, text: text)
    case let .edit(message, text): .edit(channel: channel, message: message, text: text)
    case let .delete(message): .delete(channel: channel, message: message)
    case let .createChannel(name): .createChannel(name: name)
    }
  }
}
