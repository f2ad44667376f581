import ConcordJSON
import ConcordReplay
import ConcordText
import Foundation

/// The inspector window without a terminal or a log: the entries it holds, which one is
/// selected, what it shows of it, and what it asks its shell to read. Keys and what was read go
/// in (``handle(_:)``); the frame to draw and the reads to make come out.
///
/// ```swift
/// var model = InspectorModel(title: "workspace log")
/// var reads = model.handle(.read(.page(entries, end: 120)))
/// reads = model.handle(.key(.up))                 // select the entry before
/// reads = model.handle(.key(.enter))              // [.change(seq: 119, wholeState: false)]
/// let frame = model.frame(columns: 100, rows: 30)
/// ```
public struct InspectorModel: Sendable {
  /// What goes in: a key, or what the shell read for it.
  public enum Event: Sendable {
    /// A key the person pressed.
    case key(Key)
    /// What the shell read.
    case read(Reading)
  }

  /// What the shell read, in answer to a ``Read``.
  public enum Reading: Sendable {
    /// Entries that pass the filter, in seq order, and the log's end when they were read.
    /// `replacing` starts the list over (a jump, a new filter); otherwise they join it.
    case page([InspectedEntry], end: Int64, replacing: Bool, select: Int64?)
    /// The lines to show full screen: an entry's change, a "what if", the chain's trust.
    case lines(title: String, [String])
    /// Something went wrong, in a sentence.
    case failure(String)
  }

  /// What the model asks its shell to read.
  public enum Read: Equatable, Sendable {
    /// The entries before the first one held (scrolling back).
    case earlier(before: Int64)
    /// The entries after the last one held (new ones, or scrolling on).
    case later(after: Int64)
    /// The entries around a seq, starting the list over there.
    case around(seq: Int64)
    /// The entries from a time on, starting the list over there.
    case at(time: Date)
    /// The last entries, starting the list over (a new filter).
    case last
    /// What an entry changed: in its scope, or in the whole state.
    case change(seq: Int64, wholeState: Bool)
    /// The state without an entry, or without what its author did from it on.
    case whatIf(seq: Int64, everythingOfItsAuthorFromIt: Bool)
    /// The chain's trust: verified through where, the checkpoints, a rollback.
    case trust
    /// Leave.
    case quit
  }

  /// What the window shows.
  public enum Mode: Equatable, Sendable {
    /// The list of entries.
    case list
    /// Lines full screen (a change, a "what if"), scrolled.
    case lines(title: String, lines: [String], top: Int)
    /// A question on the bottom line: a filter, or where to jump.
    case asking(Question, typed: String)
  }

  /// What the bottom line asks.
  public enum Question: Equatable, Sendable {
    /// A filter: `user=NAME scope=PREFIX: outcome=refused since=TIME until=TIME text=WORDS`.
    case filter
    /// A seq, or a time, to jump to.
    case jump
  }

  /// The entries held, in seq order, all passing the filter.
  public private(set) var entries: [InspectedEntry] = []
  /// The index of the selected entry in ``entries``.
  public private(set) var selected = 0
  /// True while the list follows new entries (the last one selected).
  public private(set) var following = true
  /// The log's last seq, when last read.
  public private(set) var end: Int64 = 0
  /// True when the first entry held is the first the filter lets through.
  public private(set) var atStart = false
  /// What the window shows.
  public private(set) var mode: Mode = .list
  /// The filter entries must pass.
  public private(set) var filter: EntryFilter
  /// A line about the last thing that went wrong, shown until the next key.
  public private(set) var notice: String?
  let title: String
  /// How many rows the list had when last drawn: a page for PgUp/PgDn.
  var listRows = 20

  /// A window that shows `title` above the entries.
  ///
  /// - Parameters:
  ///   - title: what the log is (`workspace log at ~/.local/state/concord`).
  ///   - filter: the filter to start with.
  public init(title: String, filter: EntryFilter = EntryFilter()) {
    self.title = title
    self.filter = filter
  }

  /// The selected entry, if any.
  public var selectedEntry: InspectedEntry? { entries.indices.contains(selected) ? entries[selected] : nil }

  /// Takes an event; returns what to read next.
  public mutating func handle(_ event: Event) -> [Read] {
    switch event {
    case let .read(reading): return take(reading)
    case let .key(key):
      notice = nil
      switch mode {
      case .list: return listKey(key)
      case let .lines(title, lines, top): return linesKey(key, title: title, lines: lines, top: top)
      case let .asking(question, typed): return askingKey(key, question: question, typed: typed)
      }
    }
  }

  mutating func take(_ reading: Reading) -> [Read] {
    switch reading {
    case let .page(page, end, replacing, select):
      self.end = max(self.end, end)
      let selectedSeq = selectedEntry?.seq
      if replacing {
        entries = page
        atStart = page.first.map { $0.seq <= 1 } ?? true
        following = select == nil
      } else if let first = page.first, let held = entries.first, first.seq < held.seq {
        entries = page + entries
        if page.isEmpty { atStart = true }
      } else {
        entries += page
      }
      if let want = select ?? (following ? nil : selectedSeq) {
        selected = entries.firstIndex { $0.seq >= want } ?? max(0, entries.count - 1)
      } else {
        selected = max(0, entries.count - 1)
      }
      return []
    case let .lines(title, lines):
      mode = .lines(title: title, lines: lines, top: 0)
      return []
    case let .failure(text):
      notice = text
      return []
    }
  }

  /// No earlier entry passes the filter: the list starts where it does.
  public mutating func reachedStart() { atStart = true }

  mutating func listKey(_ key: Key) -> [Read] {
    switch key {
    case .up, .wheelUp, .character("k"): return move(by: -1)
    case .down, .wheelDown, .character("j"): return move(by: 1)
    case .pageUp: return move(by: -max(1, listRows - 1))
    case .pageDown: return move(by: max(1, listRows - 1))
    case .home: return move(by: -entries.count)
    case .end:
      following = true
      selected = max(0, entries.count - 1)
      return [.later(after: entries.last?.seq ?? 0)]
    case .enter: return selectedEntry.map { [.change(seq: $0.seq, wholeState: false)] } ?? []
    case .character("w"): return selectedEntry.map { [.change(seq: $0.seq, wholeState: true)] } ?? []
    case .character("x"): return selectedEntry.map { [.whatIf(seq: $0.seq, everythingOfItsAuthorFromIt: false)] } ?? []
    case .character("X"): return selectedEntry.map { [.whatIf(seq: $0.seq, everythingOfItsAuthorFromIt: true)] } ?? []
    case .character("t"): return [.trust]
    case .character("/"):
      mode = .asking(.filter, typed: Self.words(of: filter))
      return []
    case .character("g"):
      mode = .asking(.jump, typed: "")
      return []
    case .character("?"):
      mode = .lines(title: "Keys of the inspector", lines: Self.keys, top: 0)
      return []
    case .character("q"), .control("c"): return [.quit]
    default: return []
    }
  }

  /// What each key does, and how a filter and a jump are written: the `?` screen, whole where
  /// the bottom line has room for a few words only.
  static let keys = [
    "In the list",
    "  ↑ ↓  k j         select the entry before or after (at the top, earlier ones are read)",
    "  PgUp PgDn        a page back or on",
    "  Home             the first entry held        End   the newest, and follow new ones",
    "  Enter            what the entry changed in its scope, and the scope as of it",
    "  w                what it changed in the whole state",
    "  x                what if it had not happened: what would be refused, what would differ",
    "  X                what if its author had done nothing from it on",
    "  /                filter (below)               g     jump to a seq or a time",
    "  t                the chain's trust: verified through which entry, checkpoints, rollback",
    "  ?                these keys                   q     leave",
    "",
    "A filter is words that all must hold, for example  user=mallory scope=card: outcome=refused",
    "  user=NAME        entries by that person",
    "  scope=NAME       entries of that scope; one ending in ':' is a prefix (card: is every card)",
    "  outcome=applied  or outcome=refused",
    "  since=TIME       from that time on            until=TIME   before that time",
    "  text=WORDS       the action or its words contain them (the rest of the line)",
    "  An empty filter shows every entry.",
    "",
    "A jump is a seq (120, #120) or a time (2026-12-01T09:00:00Z): the first entry at or after it.",
    "",
    "In a page of lines (a change, a what-if, the trust): ↑ ↓ PgUp PgDn Space scroll, Esc back.",
  ]

  /// Moves the selection; asks for earlier entries when it reaches the first one held.
  mutating func move(by offset: Int) -> [Read] {
    guard !entries.isEmpty else { return [] }
    let target = selected + offset
    selected = min(max(0, target), entries.count - 1)
    following = offset > 0 && selected == entries.count - 1
    if target < 0, !atStart, let first = entries.first { return [.earlier(before: first.seq)] }
    if target >= entries.count, let last = entries.last, last.seq < end { return [.later(after: last.seq)] }
    return []
  }

  mutating func linesKey(_ key: Key, title: String, lines: [String], top: Int) -> [Read] {
    let page = max(1, listRows)
    var top = top
    switch key {
    case .up, .wheelUp, .character("k"): top -= 1
    case .down, .wheelDown, .character("j"): top += 1
    case .pageUp: top -= page
    case .pageDown, .character(" "): top += page
    case .home: top = 0
    case .end: top = lines.count
    case .escape, .character("q"), .enter, .backspace:
      mode = .list
      return []
    case let .alt(character):
      // Escape and a key pressed at once arrive as one Alt key: back, then the key.
      mode = .list
      return listKey(.character(character))
    default: return []
    }
    mode = .lines(title: title, lines: lines, top: min(max(0, top), max(0, lines.count - page)))
    return []
  }

  mutating func askingKey(_ key: Key, question: Question, typed: String) -> [Read] {
    switch key {
    case let .character(character):
      mode = .asking(question, typed: typed + String(character))
    case .backspace:
      mode = .asking(question, typed: String(typed.dropLast()))
    case .escape, .control("c"):
      mode = .list
    case .enter:
      mode = .list
      switch question {
      case .filter:
        do {
          filter = try Self.filter(from: typed)
          following = true
          return [.last]
        } catch {
          notice = "\(error)"
        }
      case .jump:
        let text = typed.trimmingCharacters(in: .whitespaces)
        if let seq = Int64(text.hasPrefix("#") ? String(text.dropFirst()) : text) { return [.around(seq: seq)] }
        if let time = try? JSONDate.date(from: text) { return [.at(time: time)] }
        notice = "jump to a seq (120) or a time (2026-12-01T09:00:00Z), not \"\(text)\""
      }
    default: break
    }
    return []
  }
}
