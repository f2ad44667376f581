import ConcordApp
import Foundation

/// Keys: the ones the window takes (leaving, scrolling, help, Tab) and the rest, the line
/// editor's; Enter hands the line to ``WindowModel/enter(_:at:)``.
extension WindowModel {
  /// The window's own words, after the scope's in `help`.
  var windowHelp: [String] {
    let open = scopes.isEmpty ? "" : " (\(scopes.joined(separator: ", ")))"
    return ["", "/open SCOPE — show another scope here\(open)"]
      + (joinsChannels ? ["/join NAME — a chat channel (as /open chat:NAME)"] : [])
      + ["/dismiss — put away the action refused on replay that is shown; /dismiss all — every one", "help", "q, quit or Ctrl-C: leave"]
      + [
        "",
        "The bottom line: connected or OFFLINE · entry N, the last entry of the log this window's scope has seen"
          + " (windows on other scopes show their own) · who you are · what waits: \(RenderContext<Int>.pendingMark) N shown"
          + " ahead of the daemon, or N ahead (typed here, shown at once, not yet in the log), and N to send (in this"
          + " home's outbox: sent when the daemon answers, exactly once), or all sent when nothing waits.",
      ]
  }

  /// The words the window itself takes, for Tab.
  var windowWords: [String] { ["help", "quit", "/open"] + (joinsChannels ? ["/join"] : []) + ["/dismiss"] }

  /// Whether the app has chat channels (a `chat:NAME` scope), for `/join NAME` to open.
  var joinsChannels: Bool { scopes.contains { $0.hasPrefix("chat:") } }

  mutating func press(_ key: Key, at now: Date) -> [Command] {
    // Keys that move the body or the cursor on an empty line belong to the editor while it
    // searches the history (Ctrl-R).
    let idle = editor.isEmpty && editor.search == nil
    switch key {
    case .control("c"):
      // Ctrl-C always leaves, as the help says; Ctrl-D only on an empty line, as in a shell.
      return [.quit]
    case .control("d") where editor.isEmpty:
      return [.quit]
    case .pageUp, .pageDown:
      scrollBody { $0.page(up: key == .pageUp) }
    case .wheelUp, .wheelDown:
      scrollBody { $0.wheel(up: key == .wheelUp) }
    case .home where idle:
      scrollBody { $0.toStart() }
    case .end where idle:
      scrollBody { $0.toEnd() }
    case .left where idle, .right where idle:
      // Sideways, a third of the screen at a time: a board with more columns than fit.
      let step = max(10, columns / 3)
      sideways = max(0, sideways + (key == .left ? -step : step))
    case .escape where mode.helpScroll != nil && editor.search == nil:
      mode = .scope
      rendered = nil
    case .resize:
      break
    case .tab where editor.search == nil:
      complete(at: now)
    default:
      if case let .submitted(line) = editor.handle(key) { return enter(line, at: now) }
      // What Tab offered was for the line: a cleared line has nothing to choose for.
      if editor.isEmpty, outcome?.listsChoices == true { outcome = nil }
    }
    return []
  }

  /// Moves the help's scroll in help, else the state's.
  private mutating func scrollBody(_ change: (inout ScrollPosition) -> Void) {
    if case var .help(help) = mode {
      change(&help)
      mode = .help(help)
    } else {
      change(&scroll)
    }
    // The renderer drew only the lines that were shown.
    rendered = nil
  }

  /// Tab: the first word from the scope's words and the window's own; the next ones from what
  /// the scope shows (card numbers with their titles, columns, people, channels). Several
  /// candidates are listed on the outcome line.
  private mutating func complete(at now: Date) {
    let line = String(editor.characters[..<editor.cursor])
    let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    let typed = line.hasSuffix(" ") || line.isEmpty ? "" : words.last ?? ""
    let before = typed.isEmpty ? words : Array(words.dropLast())
    let candidates: [WordChoice]
    if before.isEmpty {
      candidates = (window.words + windowWords).map { WordChoice($0) }
    } else {
      candidates = view.shown.map { window.choices($0.state, before, typed) } ?? []
    }
    let (completed, choices) = Completion.complete(line, among: candidates)
    editor.replace(with: completed + String(editor.characters[editor.cursor...]), cursor: completed.count)
    if !choices.isEmpty {
      outcome = OutcomeLine(choices.joined(separator: "  "), isError: false, at: now, listsChoices: true)
    } else if let chosen = candidates.first(where: { $0.note != nil && completed.hasSuffix($0.word + " ") }), let note = chosen.note {
      // The one candidate, taken: say which it is (a card's title), as the list would have.
      outcome = OutcomeLine("\(chosen.word) \(note)", isError: false, at: now, listsChoices: true)
    }
  }
}
