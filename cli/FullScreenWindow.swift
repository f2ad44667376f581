import ConcordApp
import ConcordClient
import ConcordWire
import Foundation

/// The full-screen window of `concord attach`: the scope's state drawn by the app's renderer,
/// a status line, the last answers, and a command line.
final class FullScreenWindow {
  private let session: WindowSession
  private let window: WindowScope
  private var input = ""
  /// The last few things to tell the person (answers, errors, help).
  private var notes: [String] = []
  private var lastSize = (columns: 0, rows: 0)
  private var quit = false
  /// True while the body shows the scope's commands instead of its state (until the next line).
  private var showingHelp = false
  private var lastDrawn = Date.distantPast

  init(session: WindowSession, window: WindowScope) {
    self.session = session
    self.window = window
  }

  func run() throws {
    Terminal.enterFullScreen()
    defer { Terminal.restore() }
    take(try session.tick())
    draw()
    while !quit {
      let ready = waitForInput(socket: session.fileDescriptor, milliseconds: 100)
      var changed = false
      if ready.socket {
        take(try session.socketReadable())
        changed = true
      }
      if ready.stdin {
        guard let keys = Terminal.readKeys() else { return }
        handleKeys(keys)
        changed = true
      }
      let events = try session.tick()
      if !events.isEmpty {
        take(events)
        changed = true
      }
      // Also once a second: the outbox is shared with other commands, which change its count.
      if Terminal.size != lastSize || Date().timeIntervalSince(lastDrawn) > 1 { changed = true }
      if changed, !quit { draw() }
    }
  }

  // MARK: - Input

  private func handleKeys(_ keys: [UInt8]) {
    var index = 0
    while index < keys.count {
      let key = keys[index]
      index += 1
      switch key {
      case 3, 4:  // Ctrl-C, Ctrl-D
        quit = true
        return
      case 13, 10:
        execute(input)
        input = ""
      case 127, 8:
        if !input.isEmpty { input.removeLast() }
      case 21:  // Ctrl-U
        input = ""
      case 27:  // an escape sequence (arrows and such): skipped
        if index < keys.count, keys[index] == UInt8(ascii: "[") {
          index += 1
          while index < keys.count, !(64...126).contains(keys[index]) { index += 1 }
          index += 1
        }
      default:
        // The rest of a UTF-8 character arrives in the same read.
        var end = index
        while end < keys.count, keys[end] & 0xC0 == 0x80 { end += 1 }
        if key >= 32 { input += String(decoding: keys[(index - 1)..<end], as: UTF8.self) }
        index = end
      }
    }
  }

  private func execute(_ line: String) {
    let text = line.trimmingCharacters(in: .whitespaces)
    let wasShowingHelp = showingHelp
    showingHelp = false
    guard !text.isEmpty else { return }
    switch text {
    case "q", "quit", "exit":
      quit = true
    case "help", "?":
      showingHelp = !wasShowingHelp
    default:
      do {
        let action = try ActionText.parse(text, scope: session.scope)
        take(try session.submit(action).events)
      } catch let failure as CommandFailure {
        note("\u{1B}[31m\(failure.message)\u{1B}[0m")
      } catch {
        note("\u{1B}[31m\(error)\u{1B}[0m")
      }
    }
  }

  // MARK: - Events

  private func take(_ events: [WindowSession.Event]) {
    for event in events {
      switch event {
      case let .answered(cseq, .refused(reason)): note("\u{1B}[31mrefused (#\(cseq)): \(reason)\u{1B}[0m")
      case .answered: break
      case let .replayed(action, outcome): note("sent queued #\(action.cseq) (\(action.scope)): \(outcome)")
      case let .logDiverged(.replaced(_, now)):
        note("\u{1B}[33mthe daemon's log was replaced (\(now.prefix(8))…): the outbox is kept; see `concord outbox`\u{1B}[0m")
      case let .logDiverged(divergence):
        note("\u{1B}[31m\(divergence); nothing is sent: \(divergence.decision)\u{1B}[0m")
      case let .queued(cseq, waiting): note("offline: #\(cseq) queued (\(waiting) waiting)")
      case let .disconnected(reason): note("\u{1B}[33mdisconnected: \(reason)\u{1B}[0m")
      case let .error(text): note("\u{1B}[31m\(text)\u{1B}[0m")
      case .connected, .stateChanged, .message: break
      }
    }
  }

  private func note(_ text: String) {
    notes.append(text)
    if notes.count > 3 { notes.removeFirst(notes.count - 3) }
  }

  // MARK: - Drawing

  private func draw() {
    lastDrawn = Date()
    let size = Terminal.size
    lastSize = size
    let width = max(20, size.columns)
    var screen = "\u{1B}[H\u{1B}[2J"
    let title = " \(session.scope) "
    screen += "\u{1B}[7m" + TextFit.pad(title, width) + "\u{1B}[0m\r\n"
    let bodyRows = max(1, size.rows - 4 - notes.count)
    var body: [String]
    if showingHelp {
      // The whole list when it fits; else without the examples (`concord words` has them).
      let fits = window.help.count + 5 <= bodyRows
      let words = fits ? window.help : window.briefHelp + ["(concord words \(session.scope) shows an example of each)"]
      body = ["", " The words of \(session.scope) (Enter on an empty line goes back):", ""]
        + (words + ["help", "q, quit or Ctrl-C: leave"]).map { TextFit.cut("   " + $0, width) }
    } else if let state = session.displayedState {
      body = window.render(state, width)
    } else {
      body = ["", "  (no state seen yet: waiting for the daemon)"]
    }
    if body.count > bodyRows {
      let hidden = "  … \(body.count - bodyRows + 1) more lines"
      body = window.showsEnd ? [hidden] + body.suffix(bodyRows - 1) : Array(body.prefix(bodyRows - 1)) + [hidden]
    }
    for line in body { screen += line + "\u{1B}[0m\r\n" }
    for _ in body.count..<bodyRows { screen += "\r\n" }
    for line in notes { screen += " " + line + "\r\n" }
    screen += "\u{1B}[7m" + TextFit.pad(statusLine(), width) + "\u{1B}[0m\r\n"
    screen += "> " + input + "\u{1B}[?25h"
    Terminal.write(screen)
  }

  private func statusLine() -> String {
    var connection = session.isConnected ? "connected" : "OFFLINE"
    // Kept in sight, not only in the notes: nothing is sent until a person decides.
    if !session.isConnected, case .rolledBack? = session.divergence { connection += " (the daemon's log went back)" }
    let seq = session.seq.map { "seq \($0)" } ?? "no state yet"
    let user = session.user ?? "?"
    let waiting = session.waitingCount
    return " \(connection) · \(seq) · \(user) · \(waiting) waiting · help · q to quit"
  }

}
