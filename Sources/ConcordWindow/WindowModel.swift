import ConcordApp
import ConcordClient
import ConcordWire
import Foundation

/// The full-screen window of one scope, without a terminal: keys, the session's news and the
/// answers to its own commands go in (``Event``); what to draw (``frame(columns:rows:at:)``) and
/// what to do (``Command``: send an action, open another scope, …) come out. The terminal, the
/// socket and the outbox are the shell's: nothing here reads a clock, a file or a socket, so
/// every key binding and mode is tested with events alone.
///
/// Composed of:
/// - the line being typed (``LineEditor``), and Tab's completion from the scope's words and state;
/// - the body: the scope's state drawn by its renderer, scrolled (``ScrollPosition``) and
///   scrolled sideways; or, in ``Mode/help(_:)``, the scope's words;
/// - ``Mode``: the state, the help, or a question waiting for `y` (a line that cannot be undone);
/// - the outcome line (``OutcomeLine``): what the last line did, or what happened;
/// - the status line: the link to the daemon (``SessionView/Link``), the seq, who, and what waits.
///
/// ```swift
/// var model = WindowModel(scope: "counter", window: counter, history: [])
/// for key in "inc" { _ = model.handle(.key(.character(key)), at: now) }
/// model.handle(.key(.enter), at: now)     // [.rememberLine("inc"), .send(line: "inc", action: {"increment":{}})]
/// let frame = model.frame(columns: 80, rows: 24, at: now)
/// ```
public struct WindowModel {
  /// What the window is told.
  public enum Event: Sendable {
    /// A key pressed (``Key/resize`` when the terminal changed size).
    case key(Key)
    /// What the session said (maybe nothing: a second passed), and what it shows now.
    case session([WindowSession.Event], SessionView)
    /// A ``Command/send(line:action:)`` was queued under `cseq`; its answer comes as a session
    /// event for that cseq.
    case sent(cseq: Int64, line: String, action: JSONValue)
    /// A ``Command/open(scope:)`` was done: the window now shows `scope`, through `window`, with
    /// the lines typed there before.
    case opened(scope: String, window: WindowScope, history: [String])
    /// The daemon will not show a scope the window tried to open, and says why.
    case openRefused(scope: String, reason: String)
    /// A command could not be done, and why.
    case failed(String)
  }

  /// What the shell is asked to do.
  public enum Command: Equatable, Sendable {
    /// Queue the action (through the outbox) and send it; answer with ``Event/sent(cseq:line:action:)``.
    case send(line: String, action: JSONValue)
    /// Show another scope here; answer with ``Event/opened(scope:window:history:)``,
    /// ``Event/openRefused(scope:reason:)`` or ``Event/failed(_:)``.
    case open(scope: String)
    /// Put away, up to `cseq` (the one shown), the actions refused when resent.
    case dismissRefused(upTo: Int64)
    /// Keep a line typed in this scope's history, in the home.
    case rememberLine(String, scope: String)
    /// Leave: the window is done.
    case quit
  }

  /// What the body shows, and what a line typed means.
  public enum Mode: Equatable, Sendable {
    /// The scope's state.
    case scope
    /// The scope's words, scrolled on their own (Esc or Enter goes back).
    case help(ScrollPosition)
    /// A line that cannot be undone waits for `y` and Enter; anything else keeps it unsent.
    case confirming(line: String, question: String)
  }

  /// The scope shown (`board`, `card:1`).
  public internal(set) var scope: String
  /// How the scope is shown and typed.
  public internal(set) var window: WindowScope
  /// How people name the app's scopes (`board`, `card:ID`): what `/open` can show.
  public let scopes: [String]
  /// What the session showed when it was last told.
  public internal(set) var view: SessionView
  public internal(set) var mode: Mode = .scope
  public internal(set) var editor: LineEditor
  /// Where the scope's state is scrolled to.
  public internal(set) var scroll: ScrollPosition
  /// The cells the body is scrolled to the right by (← and → on an empty command line).
  public internal(set) var sideways = 0
  /// What the last line did, or a notice; it fades.
  public internal(set) var outcome: OutcomeLine?
  /// What the link last did, for the status line: why it was lost (while it is), or that it is
  /// back (fading).
  public internal(set) var connectionNote: OutcomeLine?
  /// Every ``Command/quit`` ends it; nothing is taken after.
  public internal(set) var hasQuit = false
  /// What each action sent from this window was typed as, and when, by cseq, until answered.
  var typed: [Int64: TypedLine] = [:]
  /// Queued actions resent since the link came back, and how many were refused.
  var resent = (sent: 0, refused: 0)
  /// The actions of this scope that waited to be sent while the link was down (typed here or
  /// in another window of the home): "back, N replayed" counts these, whichever window resends
  /// them, so windows on one scope say the same number.
  var queuedHere: Set<Int64> = []
  /// The body as last rendered, for the size and mode it was rendered at: a keystroke redraws
  /// the command line, not the scope (rendering a big board takes milliseconds). Dropped
  /// whenever the session says anything, a line is entered, or the scroll or the scope changes.
  var rendered: RenderedBody?
  /// The screen's size at the last frame: how far ← and → scroll.
  var columns = 80

  /// - Parameters:
  ///   - scope: the scope (`board`, `card:1`).
  ///   - window: how the scope is shown and typed.
  ///   - history: the lines typed before in this scope, oldest first.
  ///   - scopes: how people name the app's scopes (`board`, `card:ID`), for `/open`.
  ///   - view: what the session shows at first.
  public init(scope: String, window: WindowScope, history: [String], scopes: [String] = [], view: SessionView = SessionView()) {
    self.scope = scope
    self.window = window
    self.scopes = scopes
    self.view = view
    editor = LineEditor(history: history)
    scroll = ScrollPosition(followsEnd: window.showsEnd)
  }

  /// Takes one event at the time `now`; returns what the shell must do, in order.
  public mutating func handle(_ event: Event, at now: Date) -> [Command] {
    guard !hasQuit else { return [] }
    let commands: [Command]
    switch event {
    case let .key(key): commands = press(key, at: now)
    case let .session(events, view): commands = take(events, view: view, at: now)
    case let .sent(cseq, line, action):
      typed[cseq] = TypedLine(line: line, action: action, at: now)
      commands = []
    case let .opened(scope, window, history): commands = show(scope, through: window, history: history, at: now)
    case let .openRefused(scope, reason):
      let hint = scope.hasPrefix("chat:") ? "; /channel \(scope.dropFirst(5)) opens it" : ""
      outcome = OutcomeLine("✗ \(reason)\(hint)", isError: true, at: now)
      commands = []
    case let .failed(reason):
      outcome = OutcomeLine("✗ \(reason)", isError: true, at: now)
      commands = []
    }
    if commands.contains(.quit) { hasQuit = true }
    return commands
  }
}

/// A line typed in the window and the action it made, while its answer is awaited.
struct TypedLine: Equatable {
  var line: String
  var action: JSONValue
  var at: Date
}

/// The body's lines as rendered for one size and mode.
struct RenderedBody {
  var width: Int
  var rows: Int
  var help: Bool
  var lines: [String]
}

extension WindowModel.Mode {
  /// The help's scroll, in help.
  var helpScroll: ScrollPosition? {
    if case let .help(scroll) = self { scroll } else { nil }
  }
}
