import ConcordApp
import Workspace

/// What Tab offers in Workspace's windows after a command's first word: the cards by number
/// (with their titles), the columns, the people, the channels — from the state the window shows.
enum Choices {
  /// `move 7 to d…` → columns; `assign 7 ` → people; `label ` → cards.
  static func board(_ view: BoardView, before: [String], typed: String) -> [WordChoice] {
    let words = before.map { $0.lowercased() }.filter { $0 != "to" }
    let number = { (id: Int) in typed.hasPrefix("#") ? "#\(id)" : "\(id)" }
    let cards = view.columns.flatMap(\.cards).map { WordChoice(number($0.id), note: $0.title) }
    let columns = view.columns.map { WordChoice($0.name) }
    switch (words.first, words.count) {
    case ("dismiss", 1): return view.reminders.map { WordChoice(number($0.card)) }
    case (let command?, 1) where cardCommands.contains(command): return cards
    case ("move", 2): return columns
    case ("assign", 2): return people(view.people, typed: typed)
    case ("column", 1): return ["add", "rename", "move", "remove"].map { WordChoice($0) }
    case ("column", 2) where words[1] != "add", ("limit", 1): return columns
    default: return []
    }
  }

  /// The commands whose first word after them is a card.
  static let cardCommands: Set<String> = ["move", "assign", "unassign", "due", "label", "unlabel", "edit", "describe", "archive"]

  /// `move d…` → columns; `assign ` → people.
  static func card(_ view: CardView, before: [String], typed: String) -> [WordChoice] {
    let words = before.map { $0.lowercased() }.filter { $0 != "to" }
    switch (words.first, words.count) {
    case ("move", 1): return view.columns.map { WordChoice($0) }
    case ("assign", 1): return people(view.people, typed: typed)
    default: return []
    }
  }

  /// `@b…` → people, `#…` → the cards the channel links to, `/edit ` → messages, `/join ` →
  /// channels, anywhere in a line.
  static func channel(_ view: ChannelView, before: [String], typed: String) -> [WordChoice] {
    if typed.hasPrefix("@") { return people(view.people, typed: typed) }
    if typed.hasPrefix("#") { return view.cards.map { WordChoice("#\($0.key)", note: $0.value) } }
    switch (before.first?.lowercased(), before.count) {
    case ("/edit", 1), ("/delete", 1):
      return view.messages.filter { !$0.deleted }.map { WordChoice("\($0.id)", note: "\($0.author): \($0.text)") }
    case ("/join", 1):
      return view.channels.map { WordChoice($0) }
    default:
      return []
    }
  }

  /// People by name, with `@` when that is how the word was begun.
  static func people(_ people: [String], typed: String) -> [WordChoice] {
    people.map { WordChoice(typed.hasPrefix("@") ? "@" + $0 : $0) }
  }
}
