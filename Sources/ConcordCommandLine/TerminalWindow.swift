import ConcordApp
import ConcordClient
import ConcordDaemonCommand
import ConcordTerminal
import ConcordWindow
import Foundation

/// The full-screen window of `NAME attach`: a ``WindowModel`` on a ``Screen``, with the
/// session of the scope it shows. It waits for keys and the socket, tells the model what
/// happened, does what the model asks (send, open, dismiss, remember a line) and draws the
/// model's frame. Everything the window decides is the model's.
final class TerminalWindow {
  private var session: WindowSession
  private var model: WindowModel
  /// Opens another scope in this window (`/open card:5`): its session and how it is shown.
  private let open: (String) throws -> (WindowSession, WindowScope)
  private let screen: Screen
  /// When the model was last given what the session shows.
  private var lastViewed = Date.distantPast

  /// - Parameter scopes: how people name the app's scopes, for `/open`.
  init(
    session: WindowSession, window: WindowScope, scopes: [String], colors: Bool,
    open: @escaping (String) throws -> (WindowSession, WindowScope)
  ) throws(ScreenError) {
    self.session = session
    self.open = open
    model = WindowModel(
      scope: session.scope, window: window, history: (try? session.outbox.history(of: window.name)) ?? [], scopes: scopes)
    screen = try Screen(colors: colors)
  }

  func run() throws {
    defer { screen.end() }
    try take(session.tick())
    draw()
    while !model.hasQuit {
      let ready = waitForInput(socket: session.fileDescriptor, milliseconds: 250)
      var events = ready.socket ? try session.socketReadable() : []
      events += try session.tick()
      // Also once a second: outcome lines fade, and other commands change the outbox.
      var changed = !events.isEmpty || Date().timeIntervalSince(lastViewed) >= 1
      if changed { try take(events) }
      while !model.hasQuit, let key = screen.readKey() {
        try perform(model.handle(.key(key), at: Date()))
        changed = true
      }
      if changed, !model.hasQuit { draw() }
    }
  }

  /// Tells the model what the session said, and what it shows now.
  private func take(_ events: [WindowSession.Event]) throws {
    lastViewed = Date()
    try perform(model.handle(.session(events, SessionView(session, keeping: model.view)), at: lastViewed))
  }

  private func perform(_ commands: [WindowModel.Command]) throws {
    for command in commands {
      switch command {
      case let .send(line, action):
        let sent: (cseq: Int64, events: [WindowSession.Event])
        do {
          sent = try session.submit(action, typed: line)
        } catch {
          try perform(model.handle(.failed(error.description), at: Date()))
          continue
        }
        try perform(model.handle(.sent(cseq: sent.cseq, line: line, action: action), at: Date()))
        try take(sent.events)
      case let .open(scope):
        try switchTo(scope)
      case let .dismissRefused(cseq):
        do {
          try session.outbox.dismissRefused(upTo: cseq)
        } catch {
          try perform(model.handle(.failed(error.description), at: Date()))
          continue
        }
        try take([])
      case let .rememberLine(line, scope):
        try? session.outbox.recordHistory(line, in: scope)
      case .quit:
        return
      }
    }
  }

  /// Shows `scope` in this window instead of the one it shows: a session of its own; the old
  /// one's connection closes. A scope the daemon says names nothing (a channel not opened yet)
  /// is not switched to.
  private func switchTo(_ scope: String) throws {
    let opened: (session: WindowSession, window: WindowScope)
    do {
      opened = try open(scope)
      if let refusal = try Self.refusal(of: opened.session) {
        opened.session.close()
        try perform(model.handle(.openRefused(scope: scope, reason: refusal), at: Date()))
        return
      }
    } catch let failure as CommandFailure {
      return try perform(model.handle(.failed(failure.message), at: Date()))
    } catch {
      return try perform(model.handle(.failed("\(error)"), at: Date()))
    }
    session.close()
    session = opened.session
    let history = (try? session.outbox.history(of: opened.window.name)) ?? []
    try perform(model.handle(.opened(scope: session.scope, window: opened.window, history: history), at: Date()))
    try take(session.tick() + session.socketReadable())
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

  private func draw() {
    let (columns, rows) = screen.size
    screen.show(model.frame(columns: columns, rows: rows, at: Date()))
  }
}
