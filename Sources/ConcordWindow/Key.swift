/// One key a person pressed (or a terminal event that arrives as one), decoded by the terminal
/// library from whatever bytes the terminal sent.
public enum Key: Equatable, Sendable {
  /// A character to insert (already a whole grapheme's first scalar or more).
  case character(Character)
  case enter, tab, backspace, delete, escape
  case left, right, up, down, home, end, pageUp, pageDown
  /// Ctrl with a letter: `.control("a")` for Ctrl-A.
  case control(Character)
  /// Alt (Meta) with a character: `.alt("b")` for Alt-B.
  case alt(Character)
  /// The mouse wheel, where the terminal reports it.
  case wheelUp, wheelDown
  /// The terminal changed size.
  case resize
}
