import ConcordJSON
import ConcordLog
import ConcordReplay
import ConcordText
import Foundation

/// How the inspector looks: a title, the entries (or the lines of what was asked), a line of
/// keys, and a bottom line for questions and notices.
extension InspectorModel {
  /// The window drawn at this size.
  ///
  /// - Parameters:
  ///   - columns: the terminal's width.
  ///   - rows: its height.
  public mutating func frame(columns: Int, rows: Int) -> WindowFrame {
    var frame = WindowFrame(columns: columns, rows: rows)
    let body = max(1, rows - 3)
    listRows = body
    let reverse = StyledLine.Style(reverse: true)
    let filterText = filter.isEmpty ? "" : " · filter: \(filter.summary)"
    let head: String
    switch mode {
    case let .lines(title, _, _): head = title
    default:
      head = "\(title) · \(end) entries\(following ? " · following" : "")\(filterText)"
    }
    frame.draw(StyledLine(runs: [.init(text: TextFit.pad(InertText.shown(head), columns), style: reverse)]), row: 0)

    switch mode {
    case let .lines(_, lines, top):
      for (row, line) in lines.dropFirst(top).prefix(body).enumerated() {
        frame.draw(StyledLine(runs: [.init(text: TextFit.cut(InertText.shown(line), columns), style: .plain)]), row: 1 + row)
      }
      frame.draw(Self.hint("↑↓ PgUp PgDn scroll · Esc back", columns), row: rows - 2)
    default:
      if entries.isEmpty {
        frame.draw(StyledLine(filter.isEmpty ? "  The log is empty." : "  No entry passes the filter."), row: 1)
      }
      // The selected entry stays in view, as low as it can be when following.
      let first = max(0, min(selected - body / 2, entries.count - body))
      for (offset, entry) in entries.dropFirst(first).prefix(body).enumerated() {
        let index = first + offset
        let style = index == selected ? StyledLine.Style(bold: true, reverse: true) : Self.style(of: entry)
        frame.draw(StyledLine(runs: [.init(text: TextFit.pad(Self.row(entry, columns), columns), style: style)]), row: 1 + offset)
      }
      frame.draw(
        Self.hint("↑↓ select · Enter what it changed · ? keys · w whole state · x without it · X without its author from it · / filter · g jump · t trust · q quit", columns),
        row: rows - 2)
    }
    switch mode {
    case let .asking(question, typed):
      let label = question == .filter ? "filter (user= scope= outcome= since= until= text=): " : "jump to seq or time: "
      frame.draw(StyledLine(TextFit.cut(label + InertText.shown(typed), columns)), row: rows - 1)
      frame.cursor = .init(row: rows - 1, column: min(columns - 1, DisplayWidth.of(label + typed)))
    default:
      if let notice { frame.draw(StyledLine(runs: [.init(text: TextFit.cut(InertText.shown(notice), columns), style: .init(color: 1))]), row: rows - 1) }
    }
    return frame
  }

  /// One entry on a line: `120  09:30:12  alice  card:3  moved #3 …`; a refused one says why
  /// first, so a narrow window still shows it: `✗ there is no card #9 · {"board":…}`.
  static func row(_ entry: InspectedEntry, _ columns: Int) -> String {
    let time = (try? JSONDate.text(entry.at)).map { String($0.dropFirst(11).prefix(8)) } ?? ""
    var said = entry.said
    if case let .refused(reason) = entry.outcome { said = "✗ \(reason) · \(said)" }
    let text = "\(TextFit.pad(String(entry.seq), 8)) \(time)  \(TextFit.pad(entry.user, 10)) \(TextFit.pad(entry.scope.isEmpty ? "-" : entry.scope, 12)) \(said)"
    return TextFit.cut(InertText.shown(text), columns)
  }

  static func style(of entry: InspectedEntry) -> StyledLine.Style {
    entry.outcome.isApplied ? .plain : StyledLine.Style(color: 1)
  }

  static func hint(_ text: String, _ columns: Int) -> StyledLine {
    StyledLine(runs: [.init(text: TextFit.cut(text, columns), style: .init(dim: true))])
  }
}
