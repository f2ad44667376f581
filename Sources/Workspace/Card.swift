import Foundation

/// A card on the board: one piece of work.
public struct Card: Codable, Equatable, Sendable, Identifiable {
  public var id: Int
  public var title: String
  public var description: String
  public var assignee: String?
  /// Lowercase words, in the order they were added.
  public var labels: [String]
  public var due: Date?
  /// The column the card is in; for an archived card, the one it was in.
  public var column: Int
  public var archived: Bool
  public var createdBy: String
  public var createdAt: Date
  public var updatedBy: String
  public var updatedAt: Date
  /// Every move between or within columns, oldest first.
  public var moves: [CardMove]

  public init(id: Int, title: String, column: Int, by user: String, at date: Date) {
    self.id = id
    self.title = title
    self.description = ""
    self.assignee = nil
    self.labels = []
    self.due = nil
    self.column = column
    self.archived = false
    self.createdBy = user
    self.createdAt = date
    self.updatedBy = user
    self.updatedAt = date
    self.moves = []
  }
}

/// One move of a card, with the column names as they were then.
public struct CardMove: Codable, Equatable, Sendable {
  public var from: String
  public var to: String
  public var by: String
  public var at: Date

  public init(from: String, to: String, by: String, at: Date) {
    self.from = from
    self.to = to
    self.by = by
    self.at = at
  }
}

/// A column of the board: an ordered list of cards, with an optional work-in-progress limit.
public struct Column: Codable, Equatable, Sendable, Identifiable {
  /// Stable across renames; windows name columns by `name`.
  public var id: Int
  public var name: String
  /// At most this many cards; nil for no limit.
  public var limit: Int?
  /// The ids of the cards in the column, top first (archived cards are not listed).
  public var cards: [Int]

  public init(id: Int, name: String, limit: Int? = nil, cards: [Int] = []) {
    self.id = id
    self.name = name
    self.limit = limit
    self.cards = cards
  }

  public var isFull: Bool { limit.map { cards.count >= $0 } ?? false }
}

extension Card {
  /// The card a text names: `42` or `#42`, a number above 0 (any `Int`: integers travel
  /// exactly). The same for a scope's parameter (`card:#42`) and a typed word.
  public static func number(_ text: String) -> Int? {
    guard let number = Int(text.hasPrefix("#") ? String(text.dropFirst()) : text), number > 0 else { return nil }
    return number
  }
}
