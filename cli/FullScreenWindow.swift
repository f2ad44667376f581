import ConcordApp
import ConcordClient
import ConcordTerminal
import ConcordWire
import Foundation

/// The full-screen window of `concord attach`, on ncurses: the scope's state drawn by the app's
/// renderer and scrolled with PgUp/PgDn, Home/End (on an empty command line) and the wheel; a
/// line for the last command's outcome; a status line with the connection; and a command line
/// with a line editor and a history kept per scope in the home.
final class FullScreenWindow {
  private var session: WindowSession
  private var window: WindowScope
  /// Opens another scope in this window (`/open card:5`): its session and how it is shown.
  private let open: (String) throws -> (WindowSession, WindowScope)
  private let screen: Screen
  private var editor: LineEditor
  private var scroll: ScrollPosition
  private var helpScroll = ScrollPosition(followsEnd: false)
  /// The cells the body is scrolled to the right by (← and → on an empty command line).
  private var sideways = 0
  /// The last command's outcome, or a notice; it fades (``Feedback``).
  private var feedback: Feedback?
  /// What the connection last did, for the status line: why it was lost (while it is), or that
  /// it is back (fading).
  private var connectionNote: Feedback?
  private var quit = false
  /// True while the body shows the scope's commands instead of its state (until Esc or Enter).
  private var showingHelp = false
  /// A line that cannot be undone, waiting for the person to confirm it (`y`).
  private var unconfirmed: (line: String, question: String)?
  /// What each action sent from this window was typed as, and when, by cseq, until it is
  /// answered.
  private var typed: [Int64: (line: String, action: JSONValue, at: Date)] = [:]
  private var lastDrawn = Date.distantPast
  /// Queued actions replayed since the connection came back, and how many of them were refused.
  private var replayed = (sent: 0, refused: 0)
  /// Actions of this home refused on replay, whichever window or command replayed them: shown
  /// until someone types `/dismiss`. Read again with the body.
  private var refusedOnReplay: [RefusedAction] = []
  /// The body as last rendered, for the size it was rendered at: a keystroke redraws the
  /// command line, not the scope (rendering a big board takes milliseconds). Dropped whenever
  /// the session says anything, a line is entered, the scope or the help changes, and once a
  /// second.
  private var rendered: (width: Int, rows: Int, shown: Range<Int>?, lines: [String])?
  /// What the session shows, and how many actions wait in the outbox, read with the body: both
  /// read (and decrypt) the outbox, which a keystroke must not do.
  private var shown: Shown?
  private var waiting = 0

  init(
    session: WindowSession, window: WindowScope, colors: Bool, open: @escaping (String) throws -> (WindowSession, WindowScope)
  ) throws(ScreenError) {
    self.session = session
    self.window = window
    self.open = open
    self.editor = LineEditor(history: (try? session.outbox.history(of: window.name)) ?? [])
    self.scroll = ScrollPosition(followsEnd: window.showsEnd)
    self.screen = try Screen(colors: colors)
  }

  func run() throws {
    defer { screen.end() }
    take(try session.tick())
    draw()
    while !quit {
      let ready = waitForInput(socket: session.fileDescriptor, milliseconds: 250)
      var changed = false
      if ready.socket {
        take(try session.socketReadable())
        changed = true
      }
      while let key = screen.readKey() {
        handle(key)
        changed = true
      }
      let events = try session.tick()
      if !events.isEmpty {
        take(events)
        changed = true
      }
      // Also once a second: feedback fades, and other commands change the outbox's count.
      if Date().timeIntervalSince(lastDrawn) >= 1 {
        rendered = nil
        changed = true
      }
      if changed, !quit { draw() }
    }
  }

  /// The window's own words, after the scope's in `help`.
  static let windowHelp = [
    "", "/open SCOPE — show another scope here (/open card:1, /open chat:general)", "/join NAME — a chat channel",
    "/dismiss — put away the action refused on replay that is shown", "help", "q, quit or Ctrl-C: leave",
  ]

  // MARK: - Keys

  private func handle(_ key: Key) {
    switch key {
    case .control("c"):
      // Ctrl-C always leaves, as the help says; Ctrl-D only on an empty line, as in a shell.
      quit = true
      return
    case .control("d") where editor.isEmpty:
      quit = true
      return
    case .pageUp, .pageDown:
      withScroll { $0.page(up: key == .pageUp) }
      return
    case .wheelUp, .wheelDown:
      withScroll { $0.wheel(up: key == .wheelUp) }
      return
    case .home where editor.isEmpty && editor.search == nil:
      withScroll { $0.toStart() }
      return
    case .end where editor.isEmpty && editor.search == nil:
      withScroll { $0.toEnd() }
      return
    case .left where editor.isEmpty && editor.search == nil, .right where editor.isEmpty && editor.search == nil:
      // Sideways, a third of the screen at a time: a board with more columns than fit.
      let step = max(10, screen.size.columns / 3)
      sideways = max(0, sideways + (key == .left ? -step : step))
      return
    case .escape where showingHelp && editor.search == nil:
      showingHelp = false
      rendered = nil
      return
    case .resize:
      return
    case .tab where editor.search == nil:
      complete()
      return
    default:
      break
    }
    if case let .submitted(line) = editor.handle(key) { execute(line) }
  }

  /// Tab: the first word from the scope's words and the window's own; the next ones from what
  /// the scope shows (card numbers with their titles, columns, people, channels). Several
  /// candidates are listed.
  private func complete() {
    let line = String(editor.characters[..<editor.cursor])
    let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    let typed = line.hasSuffix(" ") || line.isEmpty ? "" : words.last ?? ""
    let before = typed.isEmpty ? words : Array(words.dropLast())
    let candidates: [WordChoice]
    if before.isEmpty {
      candidates = (window.words + WindowWords.all).map { WordChoice($0) }
    } else {
      candidates = session.displayedState.map { window.choices($0, before, typed) } ?? []
    }
    let (completed, choices) = Completion.complete(line, among: candidates)
    editor.replace(with: completed + String(editor.characters[editor.cursor...]), cursor: completed.count)
    if !choices.isEmpty { feedback = Feedback(choices.joined(separator: "  "), isError: false) }
  }

  private func withScroll(_ change: (inout ScrollPosition) -> Void) {
    if showingHelp { change(&helpScroll) } else { change(&scroll) }
    // The renderer drew only the lines that were shown.
    rendered = nil
  }

  private func execute(_ line: String) {
    let text = line.trimmingCharacters(in: .whitespaces)
    let wasShowingHelp = showingHelp
    // A line may change what the body shows (an action applied at once, the help): render anew.
    rendered = nil
    showingHelp = false
    if let waiting = unconfirmed {
      unconfirmed = nil
      if ["y", "yes"].contains(text.lowercased()) {
        send(waiting.line)
      } else {
        feedback = Feedback("not done: \(waiting.line)", isError: false)
      }
      return
    }
    guard !text.isEmpty else { return }
    try? session.outbox.recordHistory(text, in: window.name)
    let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    // The window's own words: a whole line each, so that a chat line starting with one is said.
    let opening = words.count == 2 ? ["/open": "", "/join": "chat:"][words[0].lowercased()] : nil
    switch text.lowercased() {
    case "/open":
      feedback = Feedback("✗ /open takes a scope: /open card:1, /open chat:general, /open board", isError: true)
    case "/join":
      feedback = Feedback("✗ /join takes a channel: /join general", isError: true)
    case "q", "quit", "exit", "/q", "/quit":
      quit = true
    case "help", "?", "/help":
      showingHelp = !wasShowingHelp
      helpScroll = ScrollPosition(followsEnd: false)
    case "/dismiss":
      // The refusal shown, the oldest: the next one shows in its place.
      do {
        try session.outbox.dismissRefused(upTo: refusedOnReplay.first?.cseq ?? 0)
        let left = max(0, refusedOnReplay.count - 1)
        feedback = Feedback(
          refusedOnReplay.isEmpty ? "nothing to dismiss" : left > 0 ? "dismissed; \(left) more" : "dismissed", isError: false)
      } catch {
        feedback = Feedback("\(error)", isError: true)
      }
    case _ where opening != nil:
      switchTo(opening! + words[1])
    default:
      if let question = window.confirmation(text) {
        unconfirmed = (text, question)
      } else {
        send(text)
      }
    }
  }

  private func send(_ text: String) {
    do {
      let action = try ActionText.parse(text, scope: session.scope)
      let sent = try session.submit(action, typed: text)
      typed[sent.cseq] = (text, action, Date())
      take(sent.events)
    } catch let failure as CommandFailure {
      feedback = Feedback("✗ " + failure.message, isError: true)
    } catch {
      feedback = Feedback("✗ \(error)", isError: true)
    }
  }

  /// Shows `scope` in this window instead of the one it shows: a session of its own, its own
  /// history and scroll; the old one's connection closes. A scope the daemon says names nothing
  /// (a channel not opened yet) is not switched to.
  private func switchTo(_ scope: String) {
    do {
      let (newSession, newWindow) = try open(scope)
      if let refusal = try Self.refusal(of: newSession) {
        newSession.close()
        let hint = scope.hasPrefix("chat:") ? "; /channel \(scope.dropFirst(5)) opens it" : ""
        feedback = Feedback("✗ \(refusal)\(hint)", isError: true)
        return
      }
      session.close()
      session = newSession
      window = newWindow
      editor = LineEditor(history: (try? session.outbox.history(of: window.name)) ?? [])
      scroll = ScrollPosition(followsEnd: window.showsEnd)
      typed = [:]
      connectionNote = nil
      rendered = nil
      take(try session.tick() + session.socketReadable())
      feedback = Feedback("opened \(scope)", isError: false)
    } catch let failure as CommandFailure {
      feedback = Feedback(failure.message, isError: true)
    } catch {
      feedback = Feedback("\(error)", isError: true)
    }
  }

  /// Why the daemon will not show `session`'s scope, if it says so within a second of
  /// attaching; nil when it shows it, or is away (offline, any scope may be opened). A login
  /// through ssh that takes longer goes on beside the window: the scope is opened meanwhile.
  private static func refusal(of session: WindowSession) throws -> String? {
    var events = try session.tick()
    func said() -> String? { events.lazy.compactMap { if case let .error(text) = $0 { text } else { nil } }.first }
    let deadline = Date().addingTimeInterval(1)
    while session.isConnecting || session.isConnected && (session.confirmed == nil || session.seq == nil), Date() < deadline {
      if let text = said() { return text }
      _ = waitForInput(socket: session.fileDescriptor, milliseconds: 50, watchingInput: false)
      events += try session.tick() + session.socketReadable()
    }
    return said()
  }

  // MARK: - Events

  private func take(_ events: [WindowSession.Event]) {
    if !events.isEmpty { rendered = nil }
    for event in events {
      switch event {
      case let .answered(cseq, .applied):
        let sent = typed.removeValue(forKey: cseq)
        // A success is news only when nothing was said since its line was typed: it must not
        // hide the error of a line typed after it.
        if let said = feedback?.at, let typedAt = sent?.at, said > typedAt, feedback?.queued != cseq { break }
        // In the app's words (`added #7 Fix login to todo`) when it has them, from the state
        // that now holds the action.
        let outcome = sent.flatMap { sent in session.confirmed.flatMap { window.outcome(sent.action, $0.state) } }
        feedback = Feedback("✓ " + (outcome ?? sent?.line ?? "done"), isError: false)
      case let .answered(cseq, .refused(reason)):
        let line = typed.removeValue(forKey: cseq).map { "\($0.line): " } ?? ""
        feedback = Feedback("✗ \(line)\(reason)", isError: true)
      case let .replayed(action, outcome):
        // A refusal is shown until dismissed, in every window of the home (``refusedOnReplay``).
        if case .refused = outcome { replayed.refused += 1 }
        replayed.sent += 1
        let refused = replayed.refused > 0 ? " (\(replayed.refused) refused)" : ""
        connectionNote = Feedback("back, \(replayed.sent) replayed\(refused)", isError: false)
        // The notice that it was queued is old news.
        if feedback?.queued == action.cseq { feedback = nil }
      case let .queued(cseq, waiting):
        // The app's reducer may already see that the daemon will refuse it: say so now.
        let doubt = session.shown?.refusals[cseq].map { "; it will likely be refused: \($0)" } ?? ""
        feedback = Feedback(
          "queued while offline: \(typed[cseq]?.line ?? "an action") (\(waiting) waiting)\(doubt)", isError: !doubt.isEmpty,
          queued: cseq)
      case let .logDiverged(.replaced(_, now)):
        feedback = Feedback("the daemon's log was replaced (\(now.prefix(8))…): the outbox is kept; see `concord outbox`", isError: true)
      case let .logDiverged(divergence):
        feedback = Feedback("\(divergence); nothing is sent: \(divergence.decision)", isError: true)
      case let .disconnected(reason):
        connectionNote = Feedback(reason, isError: true)
        replayed = (0, 0)
      case .connected:
        // "back" only after a loss: the first connection is no news.
        connectionNote = connectionNote.map { _ in Feedback("back", isError: false) }
        // What was queued is being sent (by this window or another): that it was is old news.
        if feedback?.queued != nil { feedback = nil }
      case let .error(text):
        // Not about a line typed (those come with their cseq): about the connection.
        connectionNote = Feedback(text, isError: true)
      case .stateChanged, .message:
        break
      }
    }
  }

  // MARK: - Drawing

  private func draw() {
    lastDrawn = Date()
    let (width, rows) = screen.size
    screen.erase()
    screen.draw(StyledLine("\u{1B}[7m" + TextFit.pad(" \(session.scope)", width) + "\u{1B}[0m"), row: 0)
    if rendered == nil {
      refusedOnReplay = (try? session.outbox.refusedOnReplay()) ?? refusedOnReplay
      shown = session.shown
      waiting = session.waitingCount
    }
    let bodyRows = max(1, rows - 4 - (refusedOnReplay.isEmpty ? 0 : 1))
    var body: [String]
    var position = showingHelp ? helpScroll : scroll
    if let rendered, rendered.width == width, rendered.rows == bodyRows {
      body = rendered.lines
    } else {
      // Only the lines shown are drawn by the renderer: where the scroll was, and again where
      // it lands when the body's new length moved it (a conversation following its end).
      var shown = position.top..<(position.top + bodyRows)
      body = bodyLines(width: width, rows: bodyRows, shown: shown)
      var landed = position
      landed.fit(lines: body.count, rows: bodyRows)
      if !shown.contains(landed.visible) {
        shown = landed.visible
        body = bodyLines(width: width, rows: bodyRows, shown: shown)
      }
      rendered = (width, bodyRows, shown, body)
    }
    position.fit(lines: body.count, rows: bodyRows)
    if showingHelp { helpScroll = position } else { scroll = position }
    let lines = position.visible.map { StyledLine(body[$0]) }
    // Not past the widest line shown: a scroll that went too far comes back.
    let widest = lines.map(\.cells).max() ?? 0
    sideways = min(sideways, max(0, widest - width))
    for (row, line) in lines.enumerated() {
      screen.draw(sideways > 0 ? line.dropping(cells: sideways) : line, row: 1 + row)
    }
    // In the title bar, where it hides nothing of the body.
    if let more = moreText(position, moreLeft: sideways > 0, moreRight: widest - sideways > width) {
      let text = " " + more + " "
      screen.draw(StyledLine("\u{1B}[7;1m" + text + "\u{1B}[0m"), row: 0, column: max(0, width - DisplayWidth.of(text)))
    }
    if let oldest = refusedOnReplay.first {
      let count = refusedOnReplay.count > 1 ? "(1 of \(refusedOnReplay.count)) " : ""
      screen.draw(StyledLine("\u{1B}[31m" + TextFit.cut(" " + count + oldest.notice, width) + "\u{1B}[0m"), row: rows - 4)
    }
    if let question = unconfirmed?.question {
      let text = TextFit.cut(" \(question)? y and Enter does it; anything else keeps it", width)
      screen.draw(StyledLine("\u{1B}[33m" + text + "\u{1B}[0m"), row: rows - 3)
    } else if let feedback, !feedback.hasFaded {
      let text = TextFit.cut(" " + feedback.text, width)
      screen.draw(StyledLine(feedback.isError ? "\u{1B}[31m" + text + "\u{1B}[0m" : "\u{1B}[32m" + text + "\u{1B}[0m"), row: rows - 3)
    }
    screen.draw(StyledLine("\u{1B}[7m" + TextFit.pad(statusLine(), width) + "\u{1B}[0m"), row: rows - 2)
    drawCommandLine(row: rows - 1, width: width)
    screen.refresh()
  }

  private func bodyLines(width: Int, rows: Int, shown: Range<Int>) -> [String] {
    if showingHelp {
      // The whole list when it fits; else the words alone (`concord words` has the examples).
      let fits = window.help.count + 5 <= rows
      let words = fits ? window.help : window.briefHelp + ["(concord words \(session.scope) shows an example of each)"]
      return ["", " The words of \(session.scope) (Esc or Enter goes back; PgUp/PgDn scroll):", ""]
        + (words + Self.windowHelp).map { "   " + $0 }
    }
    return window.lines(of: self.shown, user: session.userName, width: width, rows: shown)
      ?? ["", "  (no state seen yet: waiting for the daemon)"]
  }

  private func moreText(_ position: ScrollPosition, moreLeft: Bool, moreRight: Bool) -> String? {
    var parts: [String] = []
    if position.newBelow > 0 {
      parts.append("\(position.newBelow) new below (End)")
    } else {
      switch (position.hasMoreAbove, position.hasMoreBelow) {
      case (true, true): parts.append("↑↓ PgUp/PgDn")
      case (false, true): parts.append("more below (PgDn)")
      case (true, false): parts.append("more above (PgUp)")
      default: break
      }
    }
    switch (moreLeft, moreRight) {
    case (true, true): parts.append("← → more")
    case (false, true): parts.append("more right (→)")
    case (true, false): parts.append("more left (←)")
    default: break
    }
    return parts.isEmpty ? nil : parts.joined(separator: " · ")
  }

  /// `> ` and the line, scrolled sideways to keep the cursor in sight; or the history search.
  private func drawCommandLine(row: Int, width: Int) {
    var prompt = "> "
    if let search = editor.search { prompt = "(search `\(search)`) " }
    var beforeCells = DisplayWidth.of(String(editor.characters[..<editor.cursor]))
    let room = max(1, width - DisplayWidth.of(prompt) - 1)
    var start = 0
    while beforeCells > room, start < editor.cursor {
      beforeCells -= DisplayWidth.of(editor.characters[start])
      start += 1
    }
    let text = TextFit.prefix(of: String(editor.characters[start...]), fitting: room).text
    screen.draw(StyledLine(prompt + text), row: row)
    screen.placeCursor(row: row, column: min(width - 1, DisplayWidth.of(prompt) + beforeCells))
  }

  private func statusLine() -> String {
    var connection = session.isConnected ? "connected" : "OFFLINE"
    // Kept in sight: nothing is sent until a person decides.
    if !session.isConnected, case .rolledBack? = session.divergence { connection += " (the daemon's log went back)" }
    if let note = connectionNote, !session.isConnected || !note.isError, !note.hasFaded { connection += " (\(note.text))" }
    if session.isConnecting { connection += ", connecting" }
    if let next = session.reconnectsAt, next.timeIntervalSinceNow >= 1, next != .distantFuture {
      connection += ", retrying in \(Int(next.timeIntervalSinceNow.rounded()))s"
    }
    let seq = session.seq.map { "seq \($0)" } ?? "no state yet"
    let user = session.userName
    let pending = shown?.pending.count ?? 0
    let queue = (pending > 0 ? "\(RenderContext<Int>.pendingMark) \(pending) pending · " : "") + "\(waiting) waiting"
    let status = " \(connection) · \(seq) · \(user) · \(queue)"
    // The reminder of the keys only when there is room for it: the rest matters more.
    let keys = " · help · q to quit"
    return DisplayWidth.of(status + keys) <= screen.size.columns ? status + keys : status
  }
}

/// One line telling a person what their last command did, or what happened: a success fades
/// after a few seconds, an error after longer, and a newer one replaces it.
struct Feedback {
  let text: String
  let isError: Bool
  let at = Date()
  /// The queued action it tells of, if it tells that one was queued: its answer replaces it.
  let queued: Int64?

  init(_ text: String, isError: Bool, queued: Int64? = nil) {
    self.text = text
    self.isError = isError
    self.queued = queued
  }

  var hasFaded: Bool { Date().timeIntervalSince(at) > (isError ? 30 : 5) }
}
