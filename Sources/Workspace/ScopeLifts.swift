import Concord
import Foundation
import IdentifiedCollections

// How a window puts what a scope shows back into a Workspace state, for the app's own reducer
// to show an action the moment it is typed (`HostedApp.predict`). Each lift is the inverse of
// its view's projection: projecting what it lifts gives the view back. What a view does not
// hold (the board's undo history, other columns' cards in a card's window) the reducer does
// not see: it may then refuse or miss what the daemon will do, and the daemon's answer mends
// the window.

extension BoardView {
  /// The board with its columns, cards, people and raised reminders.
  public func lift(into state: inout Workspace.State) {
    var board = Board(columns: [])
    board.columns = Self.unique(columns.map { Column(id: $0.id, name: $0.name, limit: $0.limit, cards: $0.cards.map(\.id)) })
    // The view counts archived cards without showing them: they stand in under numbers no one
    // can type.
    let archivedCards = (0..<max(0, archived)).map { index in
      var card = Card(id: -1 - index, title: "", column: 0, by: "", at: .distantPast)
      card.archived = true
      return card
    }
    board.cards = Self.unique(columns.flatMap(\.cards) + archivedCards)
    board.people = people
    board.nextCardID = nextCard
    board.nextColumnID = (columns.map(\.id).max() ?? 0) + 1
    board.lastEditor = lastEditor
    board.lastChange = lastChange
    board.lastUndone = undoneChange
    state.board = History(board, maxDepth: Board.undoDepth)
    state.reminders.raised = reminders
  }

  /// An identified array of `elements`, the first of each id kept: a view comes from the daemon,
  /// but a window must not trap on one that repeats an id.
  static func unique<Element: Identifiable>(_ elements: [Element]) -> IdentifiedArrayOf<Element> {
    IdentifiedArray(elements, uniquingIDsWith: { first, _ in first })
  }
}

extension ColumnView {
  /// A board of this column, and after it, when it is not the last, a column no one can name.
  public func lift(into state: inout Workspace.State) {
    var board = Board(columns: [])
    var columns = [Column(id: id, name: name, limit: limit, cards: cards.map(\.id))]
    if !isLast { columns.append(Column(id: id + 1, name: "")) }
    board.columns = BoardView.unique(columns)
    board.cards = BoardView.unique(cards)
    board.nextCardID = nextCard ?? ((cards.map(\.id).max() ?? 0) + 1)
    board.nextColumnID = id + 2
    state.board = History(board, maxDepth: Board.undoDepth)
  }
}

extension CardView {
  /// A board of the columns by name, the card in its own, and the people.
  public func lift(into state: inout Workspace.State) {
    var board = Board(columns: [])
    // The card's own column keeps its id; the others take ids after it.
    var lifted: [Column] = []
    var nextID = max(card.column, columns.count) + 1
    for name in columns {
      if name == column, !lifted.contains(where: { $0.id == card.column }) {
        lifted.append(Column(id: card.column, name: name, cards: card.archived ? [] : [card.id]))
      } else {
        lifted.append(Column(id: nextID, name: name))
        nextID += 1
      }
    }
    board.columns = BoardView.unique(lifted)
    board.cards = [card]
    board.people = people
    board.nextCardID = card.id + 1
    board.nextColumnID = nextID
    state.board = History(board, maxDepth: Board.undoDepth)
    if overdue { state.reminders.raised = [Reminder(card: card.id, due: card.due ?? .distantPast)] }
  }
}

extension ChannelView {
  /// The channels, this one with its messages, and the people and card titles they refer to.
  public func lift(into state: inout Workspace.State) {
    var channel = Channel(id: name)
    channel.messages = BoardView.unique(messages)
    // Messages are never taken out (a deleted one keeps its place): the next is after the last.
    channel.nextMessageID = (messages.map(\.id).max() ?? 0) + 1
    var chat = Chat(channels: [])
    chat.channels = BoardView.unique(channels.map { Channel(id: $0) })
    if chat.channels[id: name] == nil { chat.channels.append(channel) } else { chat.channels[id: name] = channel }
    state.chat = chat
    var board = Board(columns: [])
    board.people = people
    board.cards = BoardView.unique(
      cards.compactMap { number, title in Int(number).map { Card(id: $0, title: title, column: 0, by: "", at: .distantPast) } })
    state.board = History(board, maxDepth: Board.undoDepth)
  }
}
