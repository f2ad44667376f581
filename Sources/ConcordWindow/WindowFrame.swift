import ConcordApp

/// What a window's screen shows at one moment: styled lines at places, and the cursor. The
/// terminal draws it as it is (``rows`` is what a person would read off it).
///
/// ```swift
/// let frame = model.frame(columns: 80, rows: 24, at: now)
/// frame.rows[0]   // " counter"
/// ```
public struct WindowFrame: Equatable, Sendable {
  /// A styled line drawn from `column` of `row`; a later one covers an earlier one where they
  /// meet.
  public struct Text: Equatable, Sendable {
    public var row: Int
    public var column: Int
    public var line: StyledLine
  }

  public struct Position: Equatable, Sendable {
    public var row: Int
    public var column: Int
  }

  public let columns: Int
  public let lineCount: Int
  public private(set) var texts: [Text] = []
  /// Where the cursor shows (on the command line).
  public var cursor: Position?

  public init(columns: Int, rows: Int) {
    self.columns = columns
    self.lineCount = rows
  }

  /// Draws `line` from `column` of `row`.
  public mutating func draw(_ line: StyledLine, row: Int, column: Int = 0) {
    guard (0..<lineCount).contains(row), column < columns else { return }
    texts.append(Text(row: row, column: column, line: line))
  }

  /// The screen's text, a string a row, as a terminal shows it (without styles), each cut to
  /// the width at a character's edge and without trailing blanks.
  public var rows: [String] {
    var cells = [[Character?]](repeating: [Character?](repeating: " ", count: columns), count: lineCount)
    for text in texts {
      var column = text.column
      for character in text.line.plain {
        let width = DisplayWidth.of(character)
        guard width > 0 else { continue }
        guard column + width <= columns else { break }
        cells[text.row][column] = character
        // The second cell of a wide character holds nothing of its own.
        if width == 2 { cells[text.row][column + 1] = nil }
        column += width
      }
    }
    return cells.map { row in
      var line = String(row.compactMap { $0 })
      while line.last == " " { line.removeLast() }
      return line
    }
  }

  /// The whole screen as text, rows joined by newlines: what a test reads.
  public var text: String { rows.joined(separator: "\n") }
}
