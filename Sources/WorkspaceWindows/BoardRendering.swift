import ConcordApp
import ConcordJSON
import Foundation
import Workspace

/// The board as a window shows it: columns side by side, each card a line or two, raised
/// reminders on top and the people at the bottom.
enum BoardRendering {
  static let gap = " │ "

  static func lines(_ board: BoardView, _ context: RenderContext<BoardView>, palette: Palette, now: Date = Date()) -> [String] {
    let width = context.width
    var lines: [String] = []
    for reminder in board.reminders {
      let title = board.columns.lazy.flatMap(\.cards).first { $0.id == reminder.card }?.title ?? ""
      let text = TextFit.cut(
        "⏰ #\(reminder.card) \(title) was due \(DateText.time(reminder.due, now: now)) · dismiss \(reminder.card)", width - 1)
      lines.append(" " + palette.yellow(text))
    }
    if !board.reminders.isEmpty { lines.append("") }
    guard !board.columns.isEmpty else { return lines + ["  (no columns: add one with `column add todo`)"] }

    let count = board.columns.count
    let columnWidth = max(10, (width - 1 - gap.count * (count - 1)) / count)
    let pendingCards = context.pending(board.columns.flatMap(\.cards), in: { $0.columns.flatMap(\.cards) })
    let daemonColumns = context.confirmed.map { Dictionary($0.columns.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }) }
    let rendered = board.columns.map { view in
      let header = daemonColumns.map { $0[view.id].map { $0.name != view.name || $0.limit != view.limit } ?? true } ?? false
      return column(of: view, width: columnWidth, palette: palette, now: now, pending: pendingCards, headerPending: header)
    }
    let height = rendered.map(\.count).max() ?? 0
    let separator = palette.dim(gap)
    for row in 0..<height {
      // A row the window will not show is left empty: a big board has hundreds.
      guard context.shows(line: lines.count) else {
        lines.append("")
        continue
      }
      var line = " "
      for (index, cells) in rendered.enumerated() {
        if index > 0 { line += separator }
        let cell = row < cells.count ? cells[row] : Cell.empty
        line += cell.styled + String(repeating: " ", count: max(0, columnWidth - cell.cells))
      }
      lines.append(line)
    }
    lines.append("")
    var footer = "people: " + (board.people.isEmpty ? "nobody yet" : board.people.joined(separator: ", "))
    if board.archived > 0 { footer += " · \(board.archived) archived" }
    if let editor = board.lastEditor {
      // Said to the person it concerns: their own change is theirs to undo.
      footer += editor == context.user ? " · the last change is yours (`undo` takes it back)" : " · last change by \(editor) (they can `undo` it)"
    }
    lines.append(" " + palette.dim(TextFit.cut(footer, width - 1)))
    return lines
  }

  /// How many first lines of ``lines(_:_:palette:now:)`` a window keeps in sight while the
  /// cards scroll: the reminders raised, and the columns' names with their counts and the rule
  /// under them.
  static func header(_ board: BoardView) -> Int {
    guard !board.columns.isEmpty else { return 0 }
    return board.reminders.count + (board.reminders.isEmpty ? 0 : 1) + 2
  }

  /// A line of a column: its plain text, the cells it takes, and the same text styled.
  struct Cell: Sendable {
    let text: String
    let styled: String
    let cells: Int

    init(text: String, styled: String) {
      self.text = text
      self.styled = styled
      cells = DisplayWidth.of(text)
    }

    static let empty = Cell(text: "", styled: "")
  }

  /// What a card's cells depend on.
  struct CardInput: Equatable {
    let card: Card
    let width: Int
    let dimmed: Bool
    let pending: Bool
    let colored: Bool
    /// The day the window is in: a due date reads "17:00" today and "Fri 28 Nov 17:00" after.
    let day: Date
  }

  /// The cells of each card as last drawn: a change to a board redraws one card of many.
  static let cardCells = MemoTable<Int, CardInput, [Cell]>(capacity: 20_000)

  /// - Parameters:
  ///   - pending: the cards changed by actions the daemon has not answered: dimmed, marked ◌.
  ///   - headerPending: true when the column's name or limit is pending.
  static func column(
    of column: ColumnView, width: Int, palette: Palette, now: Date, pending: Set<Int> = [], headerPending: Bool = false
  ) -> [Cell] {
    let load = column.limit.map { "\(column.cards.count)/\($0)" } ?? "\(column.cards.count)"
    let mark = RenderContext<ColumnView>.pendingMark + " "
    let header = TextFit.cut((headerPending ? mark : "") + "\(column.name) (\(load))", width)
    let full = column.limit.map { column.cards.count >= $0 } ?? false
    let headerStyled =
      headerPending ? palette.dim(header)
      : full ? palette.red(palette.bold(header)) : column.isLast ? palette.green(palette.bold(header)) : palette.bold(header)
    var cells = [Cell(text: header, styled: headerStyled), Cell(text: String(repeating: "─", count: width), styled: palette.dim(String(repeating: "─", count: width)))]
    if column.cards.isEmpty { cells.append(Cell(text: "(empty)", styled: palette.dim("(empty)"))) }
    let day = Calendar.current.startOfDay(for: now)
    for card in column.cards {
      let isPending = pending.contains(card.id)
      let input = CardInput(card: card, width: width, dimmed: column.isLast, pending: isPending, colored: palette.enabled, day: day)
      cells += cardCells.output(for: card.id, input: input) {
        Self.cells(of: card, width: width, dimmed: column.isLast, pending: isPending, palette: palette, now: now)
      }
    }
    return cells
  }

  /// A card's title line, and its details (`@alice [bug] due 17:00`) when it has any.
  static func cells(of card: Card, width: Int, dimmed: Bool, pending: Bool, palette: Palette, now: Date) -> [Cell] {
    let number = (pending ? RenderContext<Card>.pendingMark + " " : "") + "#\(card.id)"
    let title = TextFit.cut("\(number) \(card.title)", width)
    let titleStyled = palette.cyan(String(title.prefix(number.count))) + String(title.dropFirst(number.count))
    var cells = [Cell(text: title, styled: dimmed || pending ? palette.dim(title) : titleStyled)]
    let details = CardRendering.summary(card, now: now)
    if !details.isEmpty {
      let text = TextFit.cut("  " + details, width)
      cells.append(Cell(text: text, styled: palette.dim(text)))
    }
    return cells
  }
}
