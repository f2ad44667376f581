import ConcordApp

/// A line as the apps' renderers write it — text with ANSI SGR codes (`ESC [ … m`) for bold,
/// dim, underline, reverse and the eight colours — as runs of one style each, for a screen that
/// draws with attributes rather than escape codes.
///
/// Other escape sequences and control characters are dropped: a state's text can never move the
/// cursor or change the terminal.
///
/// ```swift
/// StyledLine("\u{1B}[1mtodo\u{1B}[0m (2)").runs
/// // [Run(text: "todo", style: bold), Run(text: " (2)", style: plain)]
/// ```
public struct StyledLine: Equatable, Sendable {
  public struct Style: Hashable, Sendable {
    public var bold = false
    public var dim = false
    public var underline = false
    public var reverse = false
    /// 0–7: black, red, green, yellow, blue, magenta, cyan, white; nil for the terminal's own.
    public var color: Int?

    public init(bold: Bool = false, dim: Bool = false, underline: Bool = false, reverse: Bool = false, color: Int? = nil) {
      self.bold = bold
      self.dim = dim
      self.underline = underline
      self.reverse = reverse
      self.color = color
    }

    public static let plain = Style()
  }

  public struct Run: Equatable, Sendable {
    public var text: String
    public var style: Style
  }

  public private(set) var runs: [Run] = []

  public init(runs: [Run]) { self.runs = runs.filter { !$0.text.isEmpty } }

  public init(_ text: String) {
    var style = Style.plain
    var current = ""
    let scalars = text.unicodeScalars
    var index = scalars.startIndex
    // Plain text is taken a stretch at a time, not a scalar at a time: a line is mostly text.
    var stretch = index
    while index < scalars.endIndex {
      let scalar = scalars[index]
      if scalar.value >= 0x20, scalar.value != 0x7F, !(0x80...0x9F).contains(scalar.value) {
        index = scalars.index(after: index)
        continue
      }
      current.unicodeScalars.append(contentsOf: scalars[stretch..<index])
      index = scalars.index(after: index)
      if scalar == "\u{1B}" {
        if let (parameters, final) = Self.controlSequence(scalars, at: &index), final == "m" {
          append(&current, style)
          Self.apply(parameters, to: &style)
        }
      } else if scalar == "\t" {
        current.unicodeScalars.append(" ")
      }
      stretch = index
    }
    current.unicodeScalars.append(contentsOf: scalars[stretch..<index])
    append(&current, style)
  }

  /// The text without its styles.
  public var plain: String { runs.map(\.text).joined() }

  /// The cells the line takes (``DisplayWidth``).
  public var cells: Int { runs.reduce(0) { $0 + DisplayWidth.of($1.text) } }

  /// The line without its first `cells` cells, for a view scrolled sideways: a wide character
  /// cut in two leaves a space for its right half.
  ///
  /// ```swift
  /// StyledLine("ab日本").dropping(cells: 3).plain   // " 本"
  /// ```
  public func dropping(cells: Int) -> StyledLine {
    var left = cells
    var kept: [Run] = []
    for run in runs {
      guard left > 0 else {
        kept.append(run)
        continue
      }
      var text = Substring(run.text)
      while left > 0, let first = text.first {
        left -= DisplayWidth.of(first)
        text = text.dropFirst()
      }
      // The right half of a wide character shows as a space.
      let padding = left < 0 ? String(repeating: " ", count: -left) : ""
      left = max(0, left)
      kept.append(Run(text: padding + text, style: run.style))
    }
    return StyledLine(runs: kept)
  }

  private mutating func append(_ text: inout String, _ style: Style) {
    guard !text.isEmpty else { return }
    if let last = runs.last, last.style == style {
      runs[runs.count - 1].text += text
    } else {
      runs.append(Run(text: text, style: style))
    }
    text = ""
  }

  /// After an ESC (at `index`, which it moves past the sequence): a CSI sequence's parameters
  /// and final character, or nil for anything else, which is skipped whole (an OSC, such as a
  /// window title, up to its BEL or ST).
  private static func controlSequence(
    _ scalars: String.UnicodeScalarView, at index: inout String.UnicodeScalarView.Index
  ) -> (String, Unicode.Scalar)? {
    func next() -> Unicode.Scalar? {
      guard index < scalars.endIndex else { return nil }
      defer { index = scalars.index(after: index) }
      return scalars[index]
    }
    let introducer = next()
    if introducer == "]" {
      while let scalar = next() {
        if scalar == "\u{07}" { break }
        if scalar == "\u{1B}" {
          _ = next()  // the backslash of ST
          break
        }
      }
      return nil
    }
    guard introducer == "[" else { return nil }
    var parameters = ""
    while let scalar = next() {
      if (0x40...0x7E).contains(scalar.value) { return (parameters, scalar) }
      parameters.unicodeScalars.append(scalar)
    }
    return nil
  }

  private static func apply(_ parameters: String, to style: inout Style) {
    let codes = parameters.isEmpty ? [0] : parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
    for code in codes {
      switch code {
      case 0: style = .plain
      case 1: style.bold = true
      case 2: style.dim = true
      case 4: style.underline = true
      case 7: style.reverse = true
      case 22:
        style.bold = false
        style.dim = false
      case 24: style.underline = false
      case 27: style.reverse = false
      case 30...37: style.color = code - 30
      case 90...97: style.color = code - 90
      case 39: style.color = nil
      default: break
      }
    }
  }
}
