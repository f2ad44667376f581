import ConcordWindow
import Testing

/// The renderers' colour codes become attributes; nothing else in a state reaches the terminal.
@Suite struct StyledLineTests {
  @Test func colourCodesBecomeRunsOfOneStyle() {
    let line = StyledLine("\u{1B}[1mtodo\u{1B}[0m (2) \u{1B}[36m#1\u{1B}[39m Fix \u{1B}[2;31mlate\u{1B}[22m!")
    #expect(line.runs.map(\.text) == ["todo", " (2) ", "#1", " Fix ", "late", "!"])
    #expect(line.runs[0].style == StyledLine.Style(bold: true))
    #expect(line.runs[2].style == StyledLine.Style(color: 6))
    #expect(line.runs[4].style == StyledLine.Style(dim: true, color: 1))
    #expect(line.runs[5].style == StyledLine.Style(color: 1))
    #expect(line.plain == "todo (2) #1 Fix late!")
  }

  @Test func escapesThatMoveOrChangeTheTerminalAndControlsAreDropped() {
    let hostile = "a\u{1B}[2Jb\u{1B}]0;title\u{07}\u{1B}]2;other\u{1B}\\c\u{0}d\u{1B}[10;10He\u{9B}f\tg\u{7F}h\r\n"
    #expect(StyledLine(hostile).plain == "abcdef gh")
  }

  /// Scrolled sideways, a line loses exactly its first cells, each character keeps its style,
  /// and a wide character cut in two leaves a space: checked against a model that lays the line
  /// out cell by cell (widths from the characters' Unicode properties, for an alphabet where
  /// they are unambiguous).
  @Test func aLineScrolledSidewaysLosesExactlyItsFirstCells() {
    let alphabet: [(Character, Int)] = [("a", 1), ("Z", 1), (" ", 1), ("日", 2), ("本", 2), ("😀", 2), ("e\u{301}", 1)]
    let styles = ["", "\u{1B}[1m", "\u{1B}[2;31m", "\u{1B}[36m"]
    var random = SystemRandomNumberGenerator()
    for _ in 0..<500 {
      // The model: one entry a cell, the character on its first cell and nil on the others.
      var text = ""
      var cells: [(Character?, String)] = []
      for _ in 0..<Int.random(in: 0...12, using: &random) {
        let style = styles.randomElement(using: &random)!
        let word = (0..<Int.random(in: 1...4, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
        text += style + String(word.map(\.0)) + "\u{1B}[0m"
        for (character, width) in word {
          cells.append((character, style))
          for _ in 1..<max(1, width) { cells.append((nil, style)) }
        }
      }
      let line = StyledLine(text)
      #expect(line.cells == cells.count, "\(text.debugDescription)")
      let drop = Int.random(in: 0...cells.count + 2, using: &random)
      let rest = cells.dropFirst(drop)
      var expected = ""
      for (index, cell) in rest.enumerated() {
        if let character = cell.0 { expected.append(character) } else if index == 0 { expected += " " }
      }
      let dropped = line.dropping(cells: drop)
      #expect(dropped.plain == expected, "\(text.debugDescription) less \(drop) cells")
      #expect(dropped.cells == rest.count)
      // Each character keeps its style.
      let styleOf = { (code: String) in StyledLine(code + "x").runs.first?.style ?? .plain }
      let expectedStyles = rest.enumerated().compactMap { index, cell in cell.0 != nil || index == 0 ? styleOf(cell.1) : nil }
      let droppedStyles = dropped.runs.flatMap { run in run.text.map { _ in run.style } }
      #expect(droppedStyles == expectedStyles, "\(text.debugDescription) less \(drop) cells")
    }
  }
}
