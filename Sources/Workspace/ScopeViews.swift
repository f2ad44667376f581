import Foundation

// What each of Workspace's scopes shows a window: a projection of the state, made by the
// daemon for every change and sent as a diff. Each holds what a window needs to lift it back
// into a state for the app's reducer (`ScopeLifts.swift`), so that an action shows the moment
// it is typed.

/// The `board` scope: every column with its cards, the people, and the reminders raised.
public struct BoardView: Codable, Equatable, Sendable {
  public var columns: [ColumnView]
  public var people: [String]
  public var reminders: [Reminder]
  public var archived: Int
  /// Who may undo the board's last change.
  public var lastEditor: String?
  /// What undo would take back, in the feed's words (`moved #2 Fix login from todo to done`).
  public var lastChange: String?
  /// What redo would put back, in the same words.
  public var undoneChange: String?
  /// The number the next card added will have.
  public var nextCard: Int

  public init(_ state: Workspace.State) {
    let board = state.board.present
    columns = board.columns.map { ColumnView($0, on: board) }
    nextCard = board.nextCardID
    people = board.people
    reminders = state.reminders.raised
    archived = board.cards.filter(\.archived).count
    lastEditor = board.lastEditor
    lastChange = board.lastChange
    undoneChange = board.lastUndone
  }
}

/// The `column:NAME` scope, and one column of the board.
public struct ColumnView: Codable, Equatable, Sendable, Identifiable {
  /// Stable across renames.
  public var id: Int
  public var name: String
  public var limit: Int?
  /// Top first.
  public var cards: [Card]
  /// True for the last column: its cards are done.
  public var isLast: Bool
  /// The number the next card added will have: in the `column:NAME` scope only (the board
  /// says it once for all its columns).
  public var nextCard: Int?

  /// - Parameter alone: true for the `column:NAME` scope, false for a column of the board's.
  public init(_ column: Column, on board: Board, alone: Bool = false) {
    id = column.id
    nextCard = alone ? board.nextCardID : nil
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
  /// The board's columns by name, left to right: where the card can move.
  public var columns: [String]
  /// Who can be assigned the card.
  public var people: [String]

  public init(_ card: Card, in state: Workspace.State) {
    let board = state.board.present
    self.card = card
    columns = board.columns.map(\.name)
    people = board.people
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
