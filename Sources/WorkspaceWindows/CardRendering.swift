import Workspace
import ConcordApp
import Foundation

/// One card in full, as the `card:ID` window shows it.
enum CardRendering {
  /// The card, with each line an action still pending changed dimmed and marked ◌ (in the
  /// space that starts it).
  static func lines(_ view: CardView, _ context: RenderContext<CardView>, palette: Palette, now: Date = Date()) -> [String] {
    let lines = lines(view, width: context.width, palette: palette, now: now)
    guard let confirmed = context.confirmed else { return lines }
    let plain = Self.lines(view, width: context.width, palette: .plain, now: now)
    let daemon = Self.lines(confirmed, width: context.width, palette: .plain, now: now)
    return lines.indices.map { index in
      let line = plain[index]
      guard index >= daemon.count || daemon[index] != line, line.hasPrefix(" ") else { return lines[index] }
      return RenderContext<CardView>.pendingMark + palette.dim(String(line.dropFirst()))
    }
  }

  static func lines(_ view: CardView, width: Int, palette: Palette, now: Date = Date()) -> [String] {
    let card = view.card
    var lines: [String] = [""]
    var status = view.column
    // The last column's cards are done, whatever it is called: said only where its name does not.
    if view.done, view.column.lowercased() != "done" { status += ", the last column: done" }
    if card.archived { status = "archived (was in \(view.column))" }
    lines.append(" " + palette.bold(palette.cyan("#\(card.id)") + " " + TextFit.cut(card.title, width - 8)))
    lines.append(" " + palette.dim("in ") + (view.done ? palette.green(status) : status))
    lines.append("")
    lines.append(" assignee  " + (card.assignee ?? palette.dim("nobody")))
    lines.append(" labels    " + (card.labels.isEmpty ? palette.dim("none") : card.labels.map { palette.magenta($0) }.joined(separator: ", ")))
    var due = card.due.map { DateText.short($0, now: now) } ?? palette.dim("none")
    if view.overdue { due = palette.yellow("⏰ " + due + " (due now)") }
    lines.append(" due       " + due)
    lines.append(" created   " + "\(card.createdBy), \(DateText.short(card.createdAt, now: now))")
    lines.append(" updated   " + "\(card.updatedBy), \(DateText.short(card.updatedAt, now: now))")
    lines.append("")
    if card.description.isEmpty {
      lines.append(" " + palette.dim("(no description: `describe TEXT` adds one)"))
    } else {
      lines += TextFit.wrap(card.description, max(10, width - 2)).map { " " + $0 }
    }
    if !card.moves.isEmpty {
      lines.append("")
      lines.append(" " + palette.bold("moves"))
      for move in card.moves.suffix(10) {
        lines.append(" " + TextFit.cut("\(DateText.short(move.at, now: now))  \(move.by): \(move.from) → \(move.to)", width - 2))
      }
    }
    return lines
  }

  /// The short line under a card's title on the board: "@alice [bug] due Sat 22 Nov 17:00".
  static func summary(_ card: Card, now: Date) -> String {
    var parts: [String] = []
    if let assignee = card.assignee { parts.append("@" + assignee) }
    if !card.labels.isEmpty { parts.append("[" + card.labels.joined(separator: ",") + "]") }
    if let due = card.due { parts.append("due " + DateText.time(due, now: now)) }
    return parts.joined(separator: " ")
  }
}
