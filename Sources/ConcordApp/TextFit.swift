import Foundation

/// Plain text fitted to a window's columns: cut with "…", padded, or wrapped between words.
///
/// ```swift
/// TextFit.cut("Fix the login page", 10)   // "Fix the l…"
/// TextFit.wrap("Fix the login page", 10)  // ["Fix the", "login page"]
/// ```
public enum TextFit {
  /// `text` cut to `width` columns, with "…" when cut.
  public static func cut(_ text: String, _ width: Int) -> String {
    guard width > 0 else { return "" }
    return text.count > width ? String(text.prefix(width - 1)) + "…" : text
  }

  /// `text` cut or padded with spaces to exactly `width` columns.
  public static func pad(_ text: String, _ width: Int) -> String {
    let cut = text.count > width ? String(text.prefix(width)) : text
    return cut + String(repeating: " ", count: max(0, width - cut.count))
  }

  /// `text` in lines of at most `width` columns, broken between words.
  public static func wrap(_ text: String, _ width: Int) -> [String] {
    guard width > 1 else { return [text] }
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = ""
      for word in paragraph.split(separator: " ") {
        var word = String(word)
        while word.count > width {
          if !line.isEmpty { lines.append(line); line = "" }
          lines.append(String(word.prefix(width)))
          word = String(word.dropFirst(width))
        }
        if line.isEmpty {
          line = word
        } else if line.count + 1 + word.count <= width {
          line += " " + word
        } else {
          lines.append(line)
          line = word
        }
      }
      lines.append(line)
    }
    return lines
  }
}
