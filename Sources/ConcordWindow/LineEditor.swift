import Foundation

/// The command line of a window: the text being typed, its cursor, and the lines typed before.
///
/// It knows keys, not terminals: ←/→, Home/End (Ctrl-A/E), Alt-B/F by word, Backspace/Delete,
/// Ctrl-W (the word before the cursor), Ctrl-K (to the end), Ctrl-U (to the start), ↑/↓ through
/// the history, Ctrl-R to search it, Enter to submit.
///
/// ```swift
/// var editor = LineEditor(history: ["move 2 done"])
/// editor.handle(.up)          // text: "move 2 done"
/// editor.handle(.control("w"))  // text: "move 2 "
/// ```
public struct LineEditor: Sendable {
  /// What the key did.
  public enum Outcome: Equatable, Sendable {
    /// The text or the cursor changed (or nothing did, but the key was the editor's).
    case edited
    /// Enter: the line, now in the history and cleared from the editor.
    case submitted(String)
    /// Not a key the editor takes (PgUp, the wheel…): the window's to use.
    case ignored
  }

  /// The text, as characters (grapheme clusters: an emoji or an accented letter is one).
  public private(set) var characters: [Character] = []
  /// How many characters stand before the cursor.
  public private(set) var cursor = 0
  /// Lines submitted before, oldest first.
  public private(set) var history: [String]
  /// Which history line ↑/↓ show (nil: the line being typed, kept in `draft`).
  private var recalled: Int?
  private var draft: [Character] = []
  /// Ctrl-R: the text searched for, while searching.
  public private(set) var search: String?
  /// At most this many lines are kept.
  public static let historyLimit = 500

  public init(history: [String] = []) {
    self.history = Array(history.suffix(Self.historyLimit))
  }

  public var text: String { String(characters) }
  public var isEmpty: Bool { characters.isEmpty }

  @discardableResult
  public mutating func handle(_ key: Key) -> Outcome {
    if search != nil, let outcome = searching(key) { return outcome }
    switch key {
    case let .character(character): insert(character)
    case .enter: return submit()
    case .left, .control("b"): cursor = max(0, cursor - 1)
    case .right, .control("f"): cursor = min(characters.count, cursor + 1)
    case .home, .control("a"): cursor = 0
    case .end, .control("e"): cursor = characters.count
    case .alt("b"): cursor = wordStart(before: cursor)
    case .alt("f"): cursor = wordEnd(after: cursor)
    case .backspace, .control("h"):
      guard cursor > 0 else { break }
      characters.remove(at: cursor - 1)
      cursor -= 1
    case .delete, .control("d"):
      guard cursor < characters.count else { break }
      characters.remove(at: cursor)
    case .control("w"):
      let start = wordStart(before: cursor)
      characters.removeSubrange(start..<cursor)
      cursor = start
    case .control("k"): characters.removeSubrange(cursor...)
    case .control("u"):
      characters.removeSubrange(..<cursor)
      cursor = 0
    case .up: recall(older: true)
    case .down: recall(older: false)
    case .control("r"): search = ""
    default: return .ignored
    }
    return .edited
  }

  /// Replaces the text (Tab completion), the cursor at `cursor` characters (its end when nil).
  public mutating func replace(with text: String, cursor: Int? = nil) {
    characters = Array(text)
    self.cursor = min(max(0, cursor ?? characters.count), characters.count)
  }

  private mutating func insert(_ character: Character) {
    characters.insert(character, at: cursor)
    cursor += 1
  }

  private mutating func submit() -> Outcome {
    let line = text
    if !line.trimmingCharacters(in: .whitespaces).isEmpty, history.last != line {
      history.append(line)
      if history.count > Self.historyLimit { history.removeFirst(history.count - Self.historyLimit) }
    }
    characters = []
    cursor = 0
    recalled = nil
    return .submitted(line)
  }

  private mutating func recall(older: Bool) {
    guard !history.isEmpty else { return }
    if recalled == nil {
      guard older else { return }
      draft = characters
      recalled = history.count - 1
    } else if older {
      recalled = max(0, recalled! - 1)
    } else if recalled! + 1 < history.count {
      recalled! += 1
    } else {
      recalled = nil
      characters = draft
      cursor = characters.count
      return
    }
    characters = Array(history[recalled!])
    cursor = characters.count
  }

  /// Ctrl-R: typing narrows to the newest history line holding the text; Ctrl-R again goes to
  /// an older one; Enter or an editing key takes the line found; Esc or Ctrl-G puts back the
  /// line as it was.
  private mutating func searching(_ key: Key) -> Outcome? {
    guard var query = search else { return nil }
    switch key {
    case let .character(character):
      query.append(character)
      search = query
      find(query, before: history.count)
      return .edited
    case .backspace:
      if !query.isEmpty { query.removeLast() }
      search = query
      find(query, before: history.count)
      return .edited
    case .control("r"):
      find(query, before: recalled ?? history.count)
      return .edited
    case .escape, .control("g"):
      search = nil
      recalled = nil
      characters = draft
      cursor = characters.count
      return .edited
    default:
      search = nil
      recalled = nil
      return nil
    }
  }

  private mutating func find(_ query: String, before end: Int) {
    if recalled == nil { draft = characters }
    guard !query.isEmpty,
      let index = history[..<min(end, history.count)].lastIndex(where: { $0.contains(query) })
    else { return }
    recalled = index
    characters = Array(history[index])
    cursor = characters.count
  }

  private func wordStart(before position: Int) -> Int {
    var index = position
    while index > 0, characters[index - 1] == " " { index -= 1 }
    while index > 0, characters[index - 1] != " " { index -= 1 }
    return index
  }

  private func wordEnd(after position: Int) -> Int {
    var index = position
    while index < characters.count, characters[index] == " " { index += 1 }
    while index < characters.count, characters[index] != " " { index += 1 }
    return index
  }
}
