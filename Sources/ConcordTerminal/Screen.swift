import CNcurses
import ConcordText
import ConcordWindow
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The terminal, full screen, through ncurses: a window's frame (``WindowFrame``) drawn with
/// attributes and wide characters, keys decoded (arrows, PgUp/PgDn, Home/End, Alt-keys, the
/// wheel, resizes), and only the cells that changed sent to the terminal at each ``refresh()``.
///
/// One per process, used from one thread (curses is not thread-safe). ``end()`` puts the
/// terminal back; so do SIGTERM, SIGHUP and SIGQUIT, and the process's exit.
///
/// ```swift
/// let screen = try Screen(colors: ProcessInfo.processInfo.environment["NO_COLOR"] == nil)
/// screen.show(model.frame(columns: screen.size.columns, rows: screen.size.rows, at: Date()))
/// if let key = screen.readKey() { _ = model.handle(.key(key), at: Date()) }
/// ```
public final class Screen {
  private let colors: Bool
  /// A code read after an Escape that was not Alt's character (an arrow, End): the next key.
  private var afterEscape: (Int32, Bool)?
  nonisolated(unsafe) private static var active = false

  /// Starts full-screen mode.
  ///
  /// - Parameter colors: use colours (false for `NO_COLOR`: bold, dim and reverse stay).
  /// - Throws: when the terminal cannot be driven (no terminfo entry for `TERM`).
  public init(colors: Bool) throws(ScreenError) {
    setlocale(LC_ALL, "")
    // The terminal library draws wide characters only in a UTF-8 locale.
    if String(cString: nl_langinfo(Int32(CODESET))) != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
    guard concord_new_terminal() != nil else { throw ScreenError(terminal: ProcessInfo.processInfo.environment["TERM"]) }
    Self.active = true
    cbreak()
    noecho()
    nonl()
    concord_keys_without_waiting()
    set_escdelay(25)
    mousemask(concord_wheel_up() | concord_wheel_down(), nil)
    mouseinterval(0)
    self.colors = colors && has_colors()
    if self.colors {
      start_color()
      use_default_colors()
      for color in 0..<8 { init_pair(Int16(color + 1), Int16(color), -1) }
    }
    atexit { Screen.restore() }
    for number in [SIGTERM, SIGHUP, SIGQUIT] {
      signal(number) { number in
        Screen.restore()
        signal(number, SIG_DFL)
        raise(number)
      }
    }
  }

  /// Puts the terminal back as it was.
  public func end() { Self.restore() }

  private static func restore() {
    guard active else { return }
    active = false
    endwin()
  }

  /// Columns and rows.
  public var size: (columns: Int, rows: Int) { (Int(concord_columns()), Int(concord_lines())) }

  /// Starts a new frame: what is not drawn again is blank at the next ``refresh()``.
  public func erase() { CNcurses.erase() }

  /// Draws `line` on `row` from the left edge, cut to the screen's width at a character's edge.
  public func draw(_ line: StyledLine, row: Int, column: Int = 0) {
    var x = column
    let width = size.columns
    for run in line.runs where x < width {
      let fitted = TextFit.prefix(of: run.text, fitting: width - x)
      concord_attrset(attributes(of: run.style))
      var wide = fitted.text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
      mvaddnwstr(Int32(row), Int32(x), &wide, Int32(wide.count))
      x += fitted.cells
      if fitted.text.count < run.text.count { break }
    }
    concord_attrset(concord_attr_normal())
  }

  /// Shows `frame` in place of what the screen shows: only the cells that changed reach the
  /// terminal.
  public func show(_ frame: WindowFrame) {
    erase()
    for text in frame.texts { draw(text.line, row: text.row, column: text.column) }
    placeCursor(row: frame.cursor?.row ?? 0, column: frame.cursor?.column)
    refresh()
  }

  /// Where the cursor shows (the command line), or hidden.
  public func placeCursor(row: Int, column: Int?) {
    guard let column else {
      curs_set(0)
      return
    }
    curs_set(1)
    move(Int32(row), Int32(column))
  }

  /// Sends what changed since the last refresh to the terminal.
  public func refresh() { CNcurses.refresh() }

  /// The next key typed, nil when none waits.
  public func readKey() -> Key? {
    let read = afterEscape ?? nextCode()
    afterEscape = nil
    guard let (code, isKey) = read else { return nil }
    if isKey { return special(code) }
    if code == 27 {
      // Alt-x arrives as ESC then x, together; a lone ESC is Escape. Escape and then another
      // key, End or an arrow, can arrive together too (typed quickly, or joined on the way
      // through ssh): that key is the next one, not lost.
      guard let next = nextCode() else { return .escape }
      guard !next.1, next.0 != 27, next.0 >= 32, let scalar = Unicode.Scalar(UInt32(next.0)) else {
        afterEscape = next
        return .escape
      }
      return .alt(Character(scalar))
    }
    return character(code)
  }

  private func nextCode() -> (Int32, Bool)? {
    var value: wint_t = 0
    let result = get_wch(&value)
    if result == ERR { return nil }
    return (Int32(bitPattern: value), result == concord_key_code_yes())
  }

  private func character(_ code: Int32) -> Key? {
    switch code {
    case 9: return .tab
    case 10, 13: return .enter
    case 8, 127: return .backspace
    case 1...26: return .control(Character(Unicode.Scalar(UInt8(code) + 96)))
    default:
      guard code >= 32, let scalar = Unicode.Scalar(UInt32(code)) else { return nil }
      return .character(Character(scalar))
    }
  }

  private func special(_ code: Int32) -> Key? {
    switch code {
    case KEY_UP: return .up
    case KEY_DOWN: return .down
    case KEY_LEFT: return .left
    case KEY_RIGHT: return .right
    case KEY_HOME: return .home
    case KEY_END: return .end
    case KEY_PPAGE: return .pageUp
    case KEY_NPAGE: return .pageDown
    case KEY_BACKSPACE: return .backspace
    case KEY_DC: return .delete
    case KEY_ENTER: return .enter
    case KEY_RESIZE: return .resize
    case KEY_MOUSE:
      var event = MEVENT()
      guard getmouse(&event) == OK else { return nil }
      if event.bstate & concord_wheel_up() != 0 { return .wheelUp }
      if event.bstate & concord_wheel_down() != 0 { return .wheelDown }
      return nil
    default: return nil
    }
  }

  private func attributes(of style: StyledLine.Style) -> attr_t {
    var attributes = concord_attr_normal()
    if style.bold { attributes |= concord_attr_bold() }
    if style.dim { attributes |= concord_attr_dim() }
    if style.underline { attributes |= concord_attr_underline() }
    if style.reverse { attributes |= concord_attr_reverse() }
    if colors, let color = style.color { attributes |= concord_color_pair(Int16(color + 1)) }
    return attributes
  }
}

/// Why a full-screen window cannot start.
public struct ScreenError: Error, CustomStringConvertible {
  public let terminal: String?
  public var description: String {
    "the terminal \(terminal.map { "\"\($0)\"" } ?? "(TERM is not set)") cannot be driven full screen"
  }
}
