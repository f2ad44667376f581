import ConcordApp
import Foundation
import Workspace

/// What an applied action did, in the words a person reads in the window's outcome line
/// (`added #7 Fix login to todo`, `moved #2 to done`), told from the scope's state that holds it.
enum Outcomes {
  static func board(_ action: BoardAction, _ view: BoardView) -> String? {
    let cards = view.columns.flatMap { column in column.cards.map { ($0, column.name) } }
    // A long title is cut: what happened to the card comes after it.
    func title(_ id: Int) -> String { cards.first { $0.0.id == id }.map { "#\(id) \(TextFit.cut($0.0.title, 30))" } ?? "#\(id)" }
    switch action {
    case let .addCard(title, column):
      // The newest card of that title: the one this action added.
      let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
      let added = cards.filter { $0.0.title == trimmed && (column == nil || $0.1.caseInsensitiveCompare(column!) == .orderedSame) }
        .max { $0.0.id < $1.0.id }
      return added.map { "added #\($0.0.id) \(TextFit.cut($0.0.title, 30)) to \($0.1)" }
    case let .moveCard(id, column, position):
      let name = view.columns.first { $0.name.caseInsensitiveCompare(column) == .orderedSame }?.name ?? column
      return "moved \(title(id)) to \(name)" + (position.map { " at position \($0)" } ?? "")
    case let .assign(id, user):
      // As the board resolved the name typed (`@Bob` is bob).
      let assignee = cards.first { $0.0.id == id }?.0.assignee
      return user == nil ? "unassigned \(title(id))" : "assigned \(title(id)) to \(assignee ?? user!)"
    case let .label(id, label): return "labelled \(title(id)) \(label.lowercased())"
    case let .unlabel(id, label): return "took \(label.lowercased()) off \(title(id))"
    case let .setDue(id, due): return due.map { "\(title(id)) is due \(DateText.short($0))" } ?? "\(title(id)) has no due date"
    case let .editCard(id, newTitle, _): return newTitle == nil ? "described \(title(id))" : "renamed the card to \(title(id))"
    case let .archive(id): return "archived #\(id)"
    case let .restore(id): return "restored \(title(id))"
    case let .addColumn(name, _): return "added the column \(name)"
    case let .renameColumn(name, newName): return "renamed the column \(name) to \(newName)"
    case let .moveColumn(name, position): return "moved the column \(name) to position \(position)"
    case let .limitColumn(name, limit): return limit.map { "\(name) holds at most \($0) cards" } ?? "\(name) has no limit"
    case let .removeColumn(name): return "removed the column \(name)"
    case let .invite(user): return "invited \(user): they can be assigned cards"
    case let .dismissReminder(id): return "put away the reminder of \(title(id))"
    case .undo: return Board.undid(view.undoneChange, whose: "your")
    case .redo: return Board.redid(view.lastChange, whose: "your")
    case .join: return nil
    }
  }

  static func column(_ action: ColumnAction, _ view: ColumnView) -> String? {
    switch action {
    case let .addCard(title):
      let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
      return view.cards.filter { $0.title == trimmed }.max { $0.id < $1.id }.map { "added #\($0.id) \($0.title) to \(view.name)" }
    case let .moveCard(id, position): return "moved #\(id) to \(view.name)" + (position.map { " at position \($0)" } ?? "")
    case let .limit(limit): return limit.map { "\(view.name) holds at most \($0) cards" } ?? "\(view.name) has no limit"
    case let .rename(newName): return "renamed the column to \(newName)"
    }
  }

  static func card(_ action: CardAction, _ view: CardView) -> String? {
    let card = "#\(view.card.id)"
    switch action {
    case .edit(let title, _): return title == nil ? "described \(card)" : "renamed \(card) to \(view.card.title)"
    case .move: return "moved \(card) to \(view.column)"
    case let .assign(user): return user == nil ? "unassigned \(card)" : "assigned \(card) to \(view.card.assignee ?? "?")"
    case let .label(name): return "labelled \(card) \(name.lowercased())"
    case let .unlabel(name): return "took \(name.lowercased()) off \(card)"
    case let .setDue(due): return due.map { "\(card) is due \(DateText.short($0))" } ?? "\(card) has no due date"
    case .archive: return "archived \(card)"
    case .restore: return "restored \(card) to \(view.column)"
    case .dismissReminder: return "put away the reminder of \(card)"
    }
  }

  static func channel(_ action: ChannelAction, _ view: ChannelView) -> String? {
    switch action {
    case .say: return nil
    case let .edit(message, _): return "edited message \(message)"
    case let .delete(message): return "deleted message \(message)"
    case let .createChannel(name): return "opened the channel \(name): /join \(name) goes there"
    }
  }
}
