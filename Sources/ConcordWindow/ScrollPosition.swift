/// Where a window's body is scrolled to: which of its lines the screen shows.
///
/// A conversation (`followsEnd`) opens at its newest line and stays there as lines arrive; once
/// a person scrolls up it keeps their place and counts what arrived below ("3 new below") until
/// they are back at the end. Anything else opens at the top and keeps its place.
///
/// ```swift
/// var scroll = ScrollPosition(followsEnd: true)
/// scroll.fit(lines: 100, rows: 20)   // top == 80
/// scroll.page(up: true)              // top == 61: one row of the last page stays in sight
/// ```
public struct ScrollPosition: Equatable, Sendable {
  /// The first line shown.
  public private(set) var top = 0
  /// True while the view stays on the last lines.
  public private(set) var atEnd: Bool
  /// Lines that arrived below since the person scrolled away from the end.
  public private(set) var newBelow = 0
  private let followsEnd: Bool
  private var lines = 0
  private var rows = 1

  public init(followsEnd: Bool) {
    self.followsEnd = followsEnd
    self.atEnd = followsEnd
  }

  /// The lines a screen of `rows` rows shows.
  public var visible: Range<Int> { top..<min(lines, top + rows) }
  /// True when there is more above or below what is shown.
  public var hasMoreAbove: Bool { top > 0 }
  public var hasMoreBelow: Bool { top + rows < lines }

  /// Takes the body's new length and the screen's rows: called before every draw.
  public mutating func fit(lines newLines: Int, rows newRows: Int) {
    if followsEnd, !atEnd, newLines > lines { newBelow += newLines - lines }
    lines = newLines
    rows = max(1, newRows)
    if atEnd { top = lastTop } else { top = min(top, lastTop) }
    if top == lastTop, followsEnd { reachEnd() }
  }

  /// PgUp/PgDn: a screen less one row, so the person keeps a line of context.
  public mutating func page(up: Bool) { move(by: (up ? -1 : 1) * max(1, rows - 1)) }

  /// The mouse wheel: three lines.
  public mutating func wheel(up: Bool) { move(by: up ? -3 : 3) }

  public mutating func toStart() { move(by: -top) }
  public mutating func toEnd() { move(by: lines) }

  private var lastTop: Int { max(0, lines - rows) }

  private mutating func move(by delta: Int) {
    top = min(max(0, top + delta), lastTop)
    if followsEnd, top == lastTop { reachEnd() } else { atEnd = false }
  }

  private mutating func reachEnd() {
    atEnd = true
    newBelow = 0
  }
}
