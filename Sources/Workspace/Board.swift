import Concord
import Foundation
import IdentifiedCollections

/// The task board: columns of cards, and the people who can be assigned to them.
///
/// A card is *done* when it sits in the last column, whatever that column is called; the
/// default board has `todo`, `doing` (at most 3 cards) and `done`.
public struct Board: Codable, Equatable, Sendable {
  public var columns: IdentifiedArrayOf<Column>
  /// Every card ever added, archived ones too.
  public var cards: IdentifiedArrayOf<Card>
  /// Everyone who joined (by opening a window) or was invited, sorted.
  public var people: [String]
  public var nextCardID: Int
  public var nextColumnID: Int
  /// Who made the last recorded change: the one person who may undo it.
  public var lastEditor: String?
  /// What the last recorded change did, as the activity feed says it (`moved #2 Fix login
  /// from todo to done`): what undo names when it takes the change back, and redo when it puts
  /// it back. Set by the feed (``Activity``), the one place that words changes.
  public var lastChange: String?
  /// What undo took back to reach this board, in the same words: what redo would put back.
  /// Nil once the board changes again.
  public var lastUndone: String?

  public init(columns: [(name: String, limit: Int?)] = [("todo", nil), ("doing", 3), ("done", nil)]) {
    self.columns = IdentifiedArray(
      uniqueElements: columns.enumerated().map { Column(id: $0.offset + 1, name: $0.element.name, limit: $0.element.limit) })
    self.cards = []
    self.people = []
    self.nextCardID = 1
    self.nextColumnID = columns.count + 1
    self.lastEditor = nil
    self.lastChange = nil
    self.lastUndone = nil
  }

  /// The column called `name`, ignoring case.
  public func column(named name: String) -> Column? {
    columns.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
  }

  /// The person who joined or was invited under `name`, written as people type it: with or
  /// without `@`, in any case.
  public func person(named name: String) -> String? {
    let bare = name.hasPrefix("@") ? String(name.dropFirst()) : name
    return people.first { $0 == bare } ?? people.first { $0.caseInsensitiveCompare(bare) == .orderedSame }
  }

  /// True for a card in the last column.
  public func isDone(_ card: Card) -> Bool {
    !card.archived && card.column == columns.last?.id
  }

  /// The name of the column a card is (or was) in.
  public func columnName(of card: Card) -> String {
    columns[id: card.column]?.name ?? "a removed column"
  }
}

/// What people do to the board.
public enum BoardAction: Codable, Equatable, Sendable {
  /// Adds a card at the bottom of `column` (the first column when nil).
  case addCard(title: String, column: String?)
  /// Changes the title, the description, or both.
  case editCard(id: Int, title: String?, description: String?)
  /// Moves a card to `column`, at `position` (1 is the top; nil is the bottom).
  case moveCard(id: Int, column: String, position: Int?)
  /// Assigns a card to someone who joined, or to nobody.
  case assign(id: Int, user: String?)
  case label(id: Int, label: String)
  case unlabel(id: Int, label: String)
  /// Sets or clears the due date.
  case setDue(id: Int, due: Date?)
  case archive(id: Int)
  /// Puts an archived card back into its column (or the first, if its column was removed).
  case restore(id: Int)
  case addColumn(name: String, limit: Int?)
  case renameColumn(name: String, to: String)
  /// Puts a column at `position` (1 is the leftmost).
  case moveColumn(name: String, position: Int)
  /// Sets or clears a column's work-in-progress limit.
  case limitColumn(name: String, limit: Int?)
  /// Removes an empty column.
  case removeColumn(name: String)
  /// Lets someone who has not opened a window yet be assigned cards.
  case invite(user: String)
  /// Sent by the app when someone opens a window: they can be assigned cards from then on.
  case join(user: String)
  /// Puts away the reminder raised for a card (its due date stays): until the card's date,
  /// column or archive changes, that reminder is not raised again, even after a restart. The
  /// reminders are the workspace's, so ``Reminders`` takes it; the board itself does not change.
  case dismissReminder(id: Int)
  /// Takes back the sender's own last change.
  case undo
  /// Puts back the sender's own change that was last undone.
  case redo

  /// True for the changes undo can take back: everything but who joined and moves in time.
  public var isUndoable: Bool {
    switch self {
    case .invite, .join, .undo, .redo, .dismissReminder: false
    default: true
    }
  }
}

extension Board {
  /// The most a card's title may hold, in characters.
  public static let titleLimit = 200
  /// The most a description and a label may hold, in characters: what one card adds to the board
  /// a window is sent whole stays small (a line is 1 MiB). New in version 1's life, so they are
  /// admission rules (``Workspace/admission(_:)``), which the log's older entries need not meet.
  public static let descriptionLimit = 10_000
  public static let labelLimit = 40
  /// A column's, a person's or a channel's name: one word of at most this many characters.
  public static let nameLimit = 40

  /// The board's own reducer. Undo and redo are the business of ``undoable``, which wraps it.
  public static let reducer = Reducer<Board, Authored<BoardAction>, Void> { board, authored, _ in
    let (user, at) = (authored.user, authored.at)
    switch authored.action {
    case let .addCard(title, columnName):
      let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
      if let refusal = titleRefusal(title) { return .refuse(refusal) }
      let column: Column
      switch (columnName, board.columns.first) {
      case let (name?, _):
        guard let named = board.column(named: name) else {
          // `add Talk to Bob` reads as the title "Talk" for a column "Bob": say how to keep
          // the whole line as the title.
          return .refuse("\(board.noColumn(name).reason); for a card titled \"\(title) to \(name)\", quote it: add \"\(title) to \(name)\"")
        }
        column = named
      case let (nil, first?): column = first
      case (nil, nil): return .refuse("the board has no columns; add one first, such as `column add todo`")
      }
      if column.isFull { return .refuse(fullColumn(column)) }
      let card = Card(id: board.nextCardID, title: title, column: column.id, by: user, at: at)
      board.nextCardID += 1
      board.cards.append(card)
      board.columns[id: column.id]?.cards.append(card.id)

    case let .editCard(id, title, description):
      guard title != nil || description != nil else { return .refuse("say what to change: the title, the description or both") }
      let newTitle = title?.trimmingCharacters(in: .whitespacesAndNewlines)
      if let newTitle, let refusal = titleRefusal(newTitle) { return .refuse(refusal) }
      return board.changeCard(id, by: user, at: at) { card in
        if let newTitle { card.title = newTitle }
        if let description { card.description = description }
        return nil
      }

    case let .moveCard(id, columnName, position):
      guard let card = board.cards[id: id] else { return .refuse(noCard(id)) }
      guard !card.archived else { return .refuse(archived(id, "moving")) }
      guard let target = board.column(named: columnName) else { return .refuse(board.noColumn(columnName)) }
      let source = board.columns[id: card.column]
      let staying = source?.id == target.id
      if !staying, target.isFull { return .refuse(fullColumn(target)) }
      var cardsThere = target.cards.filter { $0 != id }
      // Checked before the position becomes an index: a window may send any Int, and Int.min - 1
      // would trap (in the daemon).
      if let position, !(1...cardsThere.count + 1).contains(position) {
        return .refuse("\(target.name) has room for positions 1 to \(cardsThere.count + 1), not \(position)")
      }
      let slot = position.map { $0 - 1 } ?? cardsThere.count
      if staying, target.cards.firstIndex(of: id) == slot { return .refuse("#\(id) is already there") }
      cardsThere.insert(id, at: slot)
      if let source, !staying { board.columns[id: source.id]?.cards.removeAll { $0 == id } }
      board.columns[id: target.id]?.cards = cardsThere
      board.cards[id: id]?.column = target.id
      board.cards[id: id]?.moves.append(CardMove(from: source?.name ?? "?", to: target.name, by: user, at: at))
      board.touch(id, by: user, at: at)

    case let .assign(id, named):
      // As people type a name: `@bob` or `Bob` is bob.
      let assignee = named.flatMap(board.person(named:))
      if let named, assignee == nil {
        let bare = named.hasPrefix("@") ? String(named.dropFirst()) : named
        return .refuse("nobody called \(bare) has joined this workspace; invite them first: `invite \(bare)`")
      }
      return board.changeCard(id, by: user, at: at) { card in
        guard card.assignee != assignee else {
          return assignee.map { "#\(id) is already assigned to \($0)" } ?? "#\(id) is not assigned to anyone"
        }
        card.assignee = assignee
        return nil
      }

    case let .label(id, label):
      let label = label.trimmingCharacters(in: .whitespaces).lowercased()
      guard !label.isEmpty, !label.contains(" ") else { return .refuse("a label is one word, such as bug") }
      return board.changeCard(id, by: user, at: at) { card in
        guard !card.labels.contains(label) else { return "#\(id) already has the label \(label)" }
        card.labels.append(label)
        return nil
      }

    case let .unlabel(id, label):
      let label = label.lowercased()
      return board.changeCard(id, by: user, at: at) { card in
        guard card.labels.contains(label) else { return "#\(id) has no label \(label)" }
        card.labels.removeAll { $0 == label }
        return nil
      }

    case let .setDue(id, due):
      return board.changeCard(id, by: user, at: at) { card in
        if due == nil, card.due == nil { return "#\(id) has no due date" }
        card.due = due
        return nil
      }

    case let .archive(id):
      guard let card = board.cards[id: id] else { return .refuse(noCard(id)) }
      guard !card.archived else { return .refuse("#\(id) is already archived") }
      board.columns[id: card.column]?.cards.removeAll { $0 == id }
      board.cards[id: id]?.archived = true
      board.touch(id, by: user, at: at)

    case let .restore(id):
      guard let card = board.cards[id: id] else { return .refuse(noCard(id)) }
      guard card.archived else { return .refuse("#\(id) is not archived") }
      guard let column = board.columns[id: card.column] ?? board.columns.first else {
        return .refuse("the board has no columns to restore #\(id) to; add one first")
      }
      if column.isFull { return .refuse(fullColumn(column)) }
      board.columns[id: column.id]?.cards.append(id)
      board.cards[id: id]?.archived = false
      board.cards[id: id]?.column = column.id
      board.touch(id, by: user, at: at)

    case let .addColumn(name, limit):
      if let refusal = board.columnNameRefusal(name) { return .refuse(refusal) }
      if let limit, limit < 1 { return .refuse("a limit is at least 1 card") }
      board.columns.append(Column(id: board.nextColumnID, name: name, limit: limit))
      board.nextColumnID += 1

    case let .renameColumn(name, newName):
      guard let column = board.column(named: name) else { return .refuse(board.noColumn(name)) }
      if let refusal = board.columnNameRefusal(newName, except: column.id) { return .refuse(refusal) }
      board.columns[id: column.id]?.name = newName

    case let .moveColumn(name, position):
      guard let column = board.column(named: name) else { return .refuse(board.noColumn(name)) }
      guard (1...board.columns.count).contains(position) else {
        return .refuse("a column's position is 1 to \(board.columns.count), not \(position)")
      }
      guard board.columns.index(id: column.id) != position - 1 else {
        return .refuse("\(column.name) is already at position \(position)")
      }
      board.columns.remove(id: column.id)
      board.columns.insert(column, at: position - 1)

    case let .limitColumn(name, limit):
      guard let column = board.column(named: name) else { return .refuse(board.noColumn(name)) }
      if let limit {
        guard limit >= 1 else { return .refuse("a limit is at least 1 card") }
        guard column.cards.count <= limit else {
          return .refuse(
            "\(column.name) holds \(column.cards.count) cards, more than a limit of \(limit); move some out first")
        }
      }
      board.columns[id: column.id]?.limit = limit

    case let .removeColumn(name):
      guard let column = board.column(named: name) else { return .refuse(board.noColumn(name)) }
      guard column.cards.isEmpty else {
        let count = column.cards.count
        return .refuse("\(column.name) still holds \(count) card\(count == 1 ? "" : "s"); move or archive them first")
      }
      guard board.columns.count > 1 else { return .refuse("the board needs at least one column") }
      board.columns.remove(id: column.id)

    case let .invite(person):
      guard isValidName(person) else { return .refuse("a name is one word: letters, digits, - or _") }
      guard !board.people.contains(person) else { return .refuse("\(person) has already joined") }
      board.join(person)

    case let .join(person):
      guard person == user else { return .refuse("only \(person) can join as \(person); invite them instead") }
      board.join(person)

    case .undo, .redo:
      return .refuse("undo and redo need the board's history")

    case .dismissReminder:
      // The workspace's reminders take it (``Reminders``); the board does not change.
      return .none
    }
    if authored.action.isUndoable { board.lastEditor = user }
    return .none
  }

  // MARK: - Helpers

  /// Changes a card that exists and is not archived; `change` returns a refusal or nil.
  mutating func changeCard(
    _ id: Int, by user: String, at date: Date, _ change: (inout Card) -> String?
  ) -> Effect<Authored<BoardAction>> {
    guard var card = cards[id: id] else { return .refuse(Self.noCard(id)) }
    guard !card.archived else { return .refuse(Self.archived(id, "changing")) }
    if let refusal = change(&card) { return .refuse(Refusal(refusal)) }
    cards[id: id] = card
    touch(id, by: user, at: date)
    lastEditor = user
    return .none
  }

  mutating func touch(_ id: Int, by user: String, at date: Date) {
    cards[id: id]?.updatedBy = user
    cards[id: id]?.updatedAt = date
  }

  mutating func join(_ person: String) {
    guard !people.contains(person) else { return }
    people.append(person)
    people.sort()
  }

  static func isValidName(_ name: String) -> Bool {
    !name.isEmpty && name.count <= nameLimit
      && name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" || $0 == "." }
  }

  func columnNameRefusal(_ name: String, except id: Int? = nil) -> Refusal? {
    guard Self.isValidName(name) else { return "a column's name is one word: letters, digits, - or _" }
    if let existing = column(named: name), existing.id != id { return "there is already a column \(existing.name)" }
    return nil
  }

  static func titleRefusal(_ title: String) -> Refusal? {
    if title.isEmpty { return "a card needs a title" }
    if title.count > titleLimit { return "a title is at most \(titleLimit) characters; put the rest in the description" }
    return nil
  }

  func noColumn(_ name: String) -> Refusal {
    "there is no column \"\(name)\"; the columns are \(columns.map(\.name).joined(separator: ", "))"
  }

  static func noCard(_ id: Int) -> Refusal { "there is no card #\(id)" }

  static func archived(_ id: Int, _ doing: String) -> Refusal {
    "#\(id) is archived; restore it before \(doing) it"
  }

  static func fullColumn(_ column: Column) -> Refusal {
    "\(column.name) is full: it holds \(column.cards.count) of at most \(column.limit ?? 0) cards"
  }
}
