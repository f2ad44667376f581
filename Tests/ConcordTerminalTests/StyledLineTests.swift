import ConcordTerminal
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
}
