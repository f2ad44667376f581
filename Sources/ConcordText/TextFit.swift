import Foundation

/// Plain text fitted to a window's columns: cut with "…", padded, or wrapped between words.
///
/// Columns are terminal cells (``DisplayWidth``): a CJK character or an emoji takes two, an
/// accent none, and a character is never cut in the middle.
///
/// ```swift
/// TextFit.cut("Fix the login page", 10)   // "Fix the l…"
/// TextFit.wrap("Fix the login page", 10)  // ["Fix the", "login page"]
/// ```
public enum TextFit {
  /// `text` cut to `width` columns, with "…" when cut.
  public static func cut(_ text: String, _ width: Int) -> String {
    guard width > 0 else { return "" }
    guard DisplayWidth.of(text) > width else { return text }
    return prefix(of: text, fitting: width - 1).text + "…"
  }

  /// `text` cut or padded with spaces to exactly `width` columns.
  public static func pad(_ text: String, _ width: Int) -> String {
    let fitted = prefix(of: text, fitting: max(0, width))
    return fitted.text + String(repeating: " ", count: max(0, width - fitted.cells))
  }

  /// The longest start of `text` that takes at most `cells` columns, and the columns it takes.
  public static func prefix(of text: some StringProtocol, fitting cells: Int) -> (text: String, cells: Int) {
    // Printable ASCII, the common case, is one cell a character.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
      let taken = text.utf8.prefix(max(0, cells))
      return (String(decoding: taken, as: UTF8.self), taken.count)
    }
    // All of it, when all of it fits: no walk through its characters.
    let whole = DisplayWidth.of(text)
    if whole <= cells { return (String(text), whole) }
    var used = 0
    var end = text.startIndex
    for index in text.indices {
      let width = DisplayWidth.of(text[index])
      if used + width > cells { break }
      used += width
      end = text.index(after: index)
    }
    return (String(text[..<end]), used)
  }

  /// `text` in lines of at most `width` columns, broken between words.
  public static func wrap(_ text: String, _ width: Int) -> [String] {
    guard width > 1 else { return [text] }
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = ""
      // The line's cells, kept as it grows: each word is measured once.
      var lineCells = 0
      for word in paragraph.split(separator: " ") {
        var word = String(word)
        var wordCells = DisplayWidth.of(word)
        while wordCells > width {
          if !line.isEmpty { lines.append(line); line = "" }
          // At least one character a line, even one wider than the window.
          let piece = prefix(of: word, fitting: width)
          let taken = piece.text.isEmpty ? (String(word.prefix(1)), DisplayWidth.of(word.prefix(1))) : piece
          lines.append(taken.0)
          word = String(word.dropFirst(taken.0.count))
          wordCells -= taken.1
        }
        if line.isEmpty {
          (line, lineCells) = (word, wordCells)
        } else if lineCells + 1 + wordCells <= width {
          line += " " + word
          lineCells += 1 + wordCells
        } else {
          lines.append(line)
          (line, lineCells) = (word, wordCells)
        }
      }
      lines.append(line)
    }
    return lines
  }
}
