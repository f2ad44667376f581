import Foundation

// What each of Workspace's scopes shows a window: a projection of the state, made by the
// daemon for every change and sent as a diff.

/// The `board` scope: every column with its cards, the people, and the reminders raised.
public struct BoardView: Codable, Equatable, Sendable {
  public var columns: [ColumnView]
  public var people: [String]
  public var reminders: [Reminder]
  public var archived: Int
  /// Who may undo the board's last change.
  public var lastEditor: String?

  public init(_ state: Workspace.State) {
    let board = state.board.present
    columns = board.columns.map { ColumnView($0, on: board) }
    people = board.people
    reminders = state.reminders.raised
    archived = board.cards.filter(\.archived).count
    lastEditor = board.lastEditor
  }
}

/// The `column:NAME` scope, and one column of the board.
public struct ColumnView: Codable, Equatable, Sendable {
  public var name: String
  public var limit: Int?
  /// Top first.
  public var cards: [Card]
  /// True for the last column: its cards are done.
  public var isLast: Bool

  public init(_ column: Column, on board: Board) {
    name = column.name
    limit = column.limit
    cards = column.cards.compactMap { board.cards[id: $0] }
    isLast = column.id == board.columns.last?.id
  }
}

/// The `card:ID` scope: one card in full.
public struct CardView: Codable, Equatable, Sendable {
  public var card: Card
  public var column: String
  public var done: Bool
  /// True when its reminder was raised and the card is not done yet.
  public var overdue: Bool

  public init(_ card: Card, in state: Workspace.State) {
    let board = state.board.present
    self.card = card
    column = board.columnName(of: card)
    done = board.isDone(card)
    overdue = state.reminders.raised.contains { $0.card == card.id }
  }
}

/// The `chat:NAME` scope: one channel's conversation, with what its messages refer to.
public struct ChannelView: Codable, Equatable, Sendable {
  public var name: String
  /// The latest messages, oldest first.
  public var messages: [Message]
  /// The titles of the cards the messages link to, by number ("42"); a missing one has none.
  public var cards: [String: String]
  public var people: [String]
  public var channels: [String]

  public static let shown = 200

  public init(_ channel: Channel, in state: Workspace.State) {
    let board = state.board.present
    name = channel.id
    messages = Array(channel.messages.suffix(Self.shown))
    var titles: [String: String] = [:]
    for id in Set(messages.flatMap(\.cards)) { titles[String(id)] = board.cards[id: id]?.title }
    cards = titles
    people = board.people
    channels = state.chat.channels.map(\.id)
  }
}

/// The `activity` scope: the latest lines of the feed.
public struct ActivityView: Codable, Equatable, Sendable {
  public var items: [ActivityItem]

  public static let shown = 50

  public init(_ activity: Activity) {
    items = Array(activity.items.suffix(Self.shown))
  }
}
