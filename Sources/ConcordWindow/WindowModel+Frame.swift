import ConcordApp
import ConcordClient
import Foundation

/// The screen: the title, the body (scrolled, and sideways), a refusal waiting to be dismissed,
/// the outcome line or a question, the status line, and the command line with its cursor.
extension WindowModel {
  /// What the screen shows at `now`, `columns` by `rows`. It renders the body only when it was
  /// dropped (``rendered``), and keeps the scroll within the body's new length.
  public mutating func frame(columns width: Int, rows: Int, at now: Date) -> WindowFrame {
    columns = width
    var frame = WindowFrame(columns: width, rows: rows)
    frame.draw(StyledLine("\u{1B}[7m" + TextFit.pad(" " + InertText.shown(scope), width) + "\u{1B}[0m"), row: 0)
    let refused = view.refusedOnResend
    // A refusal, a question and an outcome are read whole: wrapped to the width, on as many
    // rows as they need (three at most, fewer in a short window), taken from the body.
    let most = rows >= 16 ? 3 : 1
    let notice = refused.first.map { oldest in
      Self.wrapped((refused.count > 1 ? "(1 of \(refused.count)) " : "") + oldest.notice, width: width, rows: most)
    } ?? []
    var said: (lines: [String], color: String) = ([], "")
    if case let .confirming(_, question) = mode {
      said = (Self.wrapped("\(question)? y and Enter does it; anything else keeps it", width: width, rows: most), "\u{1B}[33m")
    } else if let outcome, !outcome.hasFaded(at: now) {
      said = (Self.wrapped(outcome.text, width: width, rows: most), outcome.isError ? "\u{1B}[31m" : "\u{1B}[32m")
    }
    let saidRows = max(1, said.lines.count)
    let bodyRows = max(1, rows - 3 - saidRows - notice.count)
    let helpShown = mode.helpScroll != nil
    var position = mode.helpScroll ?? scroll
    // The scope's header stays in sight and the rest scrolls under it; a header taking more
    // than half the body would leave too little to scroll, and scrolls with it instead.
    let header = helpShown ? 0 : view.shown.map { window.header($0.state) }.map { $0 * 2 <= bodyRows ? $0 : 0 } ?? 0
    let scrolled = max(1, bodyRows - header)
    let body: [String]
    if let rendered, rendered.width == width, rendered.rows == bodyRows, rendered.help == helpShown {
      body = rendered.lines
    } else {
      body = renderBody(width: width, rows: scrolled, header: header, at: position)
      rendered = RenderedBody(width: width, rows: bodyRows, help: helpShown, lines: body)
    }
    position.fit(lines: max(0, body.count - header), rows: scrolled)
    if helpShown { mode = .help(position) } else { scroll = position }
    let lines = (body.prefix(header) + position.visible.map { body[header + $0] }).map { StyledLine($0) }
    // Not past the widest line shown: a scroll that went too far comes back.
    let widest = lines.map(\.cells).max() ?? 0
    sideways = min(sideways, max(0, widest - width))
    for (row, line) in lines.enumerated() {
      frame.draw(sideways > 0 ? line.dropping(cells: sideways) : line, row: 1 + row)
    }
    // In the title bar, where it hides nothing of the body.
    if let more = Self.moreText(position, moreLeft: sideways > 0, moreRight: widest - sideways > width) {
      let text = " " + more + " "
      frame.draw(StyledLine("\u{1B}[7;1m" + text + "\u{1B}[0m"), row: 0, column: max(0, width - DisplayWidth.of(text)))
    }
    for (index, line) in notice.enumerated() {
      frame.draw(StyledLine("\u{1B}[31m" + line + "\u{1B}[0m"), row: rows - 2 - saidRows - notice.count + index)
    }
    for (index, line) in said.lines.enumerated() {
      frame.draw(StyledLine(said.color + line + "\u{1B}[0m"), row: rows - 2 - saidRows + index)
    }
    frame.draw(StyledLine("\u{1B}[7m" + TextFit.pad(InertText.shown(statusLine(width: width, at: now)), width) + "\u{1B}[0m"), row: rows - 2)
    drawCommandLine(into: &frame, row: rows - 1, width: width)
    return frame
  }

  /// `text` on rows of `width` columns, each starting with a space, broken between words; at
  /// most `rows` of them, the last cut with `…` when there is more. Items set apart by two
  /// spaces (Tab's list: `#1 Fix login  #2 Ship it`) are kept whole where they fit, and apart.
  static func wrapped(_ text: String, width: Int, rows: Int) -> [String] {
    // Outcomes and refusals quote other people's text (titles, reasons): drawn, never obeyed.
    let text = InertText.shown(text)
    let room = max(1, width - 1)
    var lines: [String] = []
    var line = ""
    for item in text.components(separatedBy: "  ") {
      let joined = line.isEmpty ? item : line + "  " + item
      if DisplayWidth.of(joined) <= room {
        line = joined
        continue
      }
      if !line.isEmpty { lines.append(line) }
      let pieces = TextFit.wrap(item, room)
      lines += pieces.dropLast()
      line = pieces.last ?? ""
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    lines = lines.map { " " + $0 }
    guard lines.count > rows else { return lines }
    return Array(lines.prefix(rows - 1)) + [TextFit.cut(lines[rows - 1] + " " + lines[rows...].joined(separator: " "), width)]
  }

  /// A line of help on rows of `width` columns, broken at spaces: what does not fit goes on
  /// under the line's description (after its first gap of two spaces, as `help` aligns them),
  /// or past its indent, so that it reads as the same entry; the spacing that aligns the
  /// entries is kept.
  static func wrappedHelp(_ line: String, width: Int) -> [String] {
    guard DisplayWidth.of(line) > width, width > 8 else { return [line] }
    let characters = Array(line)
    let indent = characters.prefix { $0 == " " }.count
    var hanging = indent + 4
    if let gap = (indent..<max(indent, characters.count - 1)).first(where: { characters[$0] == " " && characters[$0 + 1] == " " }) {
      let column = gap + characters[gap...].prefix { $0 == " " }.count
      if column < width / 2 { hanging = column }
    }
    var rows: [String] = []
    var rest = characters[...]
    var lead = ""
    while !rest.isEmpty {
      let room = width - lead.count
      let fitted = TextFit.prefix(of: String(rest), fitting: room).text.count
      if fitted >= rest.count {
        rows.append(lead + String(rest))
        break
      }
      // The last space that fits, past the line's own indent; else cut where it stops fitting.
      let floor = rows.isEmpty ? indent : 0
      let space = (floor..<fitted).last { rest[rest.startIndex + $0] == " " }
      let taken = space.flatMap { $0 > floor ? $0 : nil } ?? max(1, fitted)
      let row = rest[rest.startIndex..<(rest.startIndex + taken)]
      rows.append(lead + String(row.reversed().drop { $0 == " " }.reversed()))
      rest = rest[(rest.startIndex + taken)...].drop { $0 == " " }
      lead = String(repeating: " ", count: hanging)
    }
    return rows
  }

  /// The body's lines. Only the lines shown are drawn by the renderer: the header, the lines
  /// where the scroll is (`position` counts the lines under the header), and again where it
  /// lands when the body's new length moved it (a conversation following its end).
  private func renderBody(width: Int, rows: Int, header: Int, at position: ScrollPosition) -> [String] {
    var shown = (header + position.top)..<(header + position.top + rows)
    var body = bodyLines(width: width, rows: rows, shown: shown, header: header)
    var landed = position
    landed.fit(lines: max(0, body.count - header), rows: rows)
    let lands = (header + landed.visible.lowerBound)..<(header + landed.visible.upperBound)
    if !shown.contains(lands) {
      shown = lands
      body = bodyLines(width: width, rows: rows, shown: shown, header: header)
    }
    return body
  }

  private func bodyLines(width: Int, rows: Int, shown: Range<Int>, header: Int) -> [String] {
    if mode.helpScroll != nil {
      // Wrapped to the width, never cut; the whole list when it fits, else the words alone
      // (`words` has the examples).
      func lines(_ words: [String]) -> [String] { (words + windowHelp).flatMap { Self.wrappedHelp("   " + $0, width: width) } }
      let whole = lines(window.help)
      let shown = whole.count + 3 <= rows ? whole : lines(window.briefHelp + ["(\(ProgramName.current) words \(scope) shows an example of each)"])
      return [""] + Self.wrappedHelp(" The words of \(scope) (Esc or Enter goes back; PgUp/PgDn scroll):", width: width) + [""] + shown
    }
    return window.lines(of: view.shown, user: view.user, width: width, rows: shown, pinned: header)
      ?? ["", "  (no state seen yet: waiting for the daemon)"]
  }

  static func moreText(_ position: ScrollPosition, moreLeft: Bool, moreRight: Bool) -> String? {
    var parts: [String] = []
    if position.newBelow > 0 {
      parts.append("\(position.newBelow) new below (End)")
    } else {
      switch (position.hasMoreAbove, position.hasMoreBelow) {
      case (true, true): parts.append("↑↓ PgUp/PgDn")
      case (false, true): parts.append("more below (PgDn)")
      case (true, false): parts.append("more above (PgUp)")
      default: break
      }
    }
    switch (moreLeft, moreRight) {
    case (true, true): parts.append("← → more")
    case (false, true): parts.append("more right (→)")
    case (true, false): parts.append("more left (←)")
    default: break
    }
    return parts.isEmpty ? nil : parts.joined(separator: " · ")
  }

  /// `> ` and the line, scrolled sideways to keep the cursor in sight; or the history search.
  private func drawCommandLine(into frame: inout WindowFrame, row: Int, width: Int) {
    var prompt = "> "
    if let search = editor.search { prompt = "(search `\(search)`) " }
    var beforeCells = DisplayWidth.of(String(editor.characters[..<editor.cursor]))
    let room = max(1, width - DisplayWidth.of(prompt) - 1)
    var start = 0
    while beforeCells > room, start < editor.cursor {
      beforeCells -= DisplayWidth.of(editor.characters[start])
      start += 1
    }
    let text = TextFit.prefix(of: String(editor.characters[start...]), fitting: room).text
    frame.draw(StyledLine(prompt + text), row: row)
    frame.cursor = WindowFrame.Position(row: row, column: min(width - 1, DisplayWidth.of(prompt) + beforeCells))
  }

  /// The link, the seq, who, and what waits; the keys' reminder when there is room. A narrow
  /// window gives up, in turn, the reminder, why the link was lost, and the seq and who: what
  /// waits stays in sight.
  func statusLine(width: Int, at now: Date) -> String {
    let state = view.isConnected ? "connected" : "OFFLINE"
    // Kept in sight: nothing is sent until a person decides.
    let wentBack = !view.isConnected && view.logWentBack ? " (the daemon's log went back)" : ""
    var note = ""
    if let line = connectionNote, !view.isConnected || !line.isError, !line.hasFaded(at: now) { note = " (\(line.text))" }
    var trying = ""
    switch view.link {
    case .connecting: trying = ", connecting"
    case let .offline(next?) where next.timeIntervalSince(now) >= 1:
      trying = ", retrying in \(Int(next.timeIntervalSince(now).rounded()))s"
    default: break
    }
    // The entry of the log this scope is as of: each window's own, so panes on other scopes may
    // show other numbers (`help` says so).
    let seq = view.seq.map { "entry \($0)" } ?? "no state yet"
    let pending = view.shown?.pending.count ?? 0
    let toSend = view.waiting == 0 ? "all sent" : "\(view.waiting) to send"
    // In words where there is room, and shorter where there is not (`help` says it whole).
    let queue = (pending > 0 ? "\(RenderContext<Int>.pendingMark) \(pending) shown ahead of the daemon · " : "") + toSend
    let shortQueue = (pending > 0 ? "\(RenderContext<Int>.pendingMark) \(pending) ahead · " : "") + toSend
    let choices = [
      [state + wentBack + note + trying, seq, view.user, queue, "help · q to quit"],
      [state + wentBack + note + trying, seq, view.user, queue],
      [state + wentBack + trying, seq, view.user, queue],
      [state + wentBack + trying, seq, view.user, shortQueue],
      [state + wentBack + trying, queue],
      [state + wentBack + trying, shortQueue],
      [state + trying, shortQueue],
    ].map { " " + $0.joined(separator: " · ") }
    return choices.first { DisplayWidth.of($0) <= width } ?? choices.last!
  }
}
