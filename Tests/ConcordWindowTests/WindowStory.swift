import ConcordApp
import ConcordClient
import ConcordWindow
import ConcordWire
import Foundation

/// A person at one full-screen window, told as a story: what they type and press, what the
/// daemon says, and what the screen then shows — the ``WindowModel`` alone, on a test clock.
///
/// ```swift
/// var story = WindowStory(scope: "counter", window: counter, state: 3)
/// story.type("inc")
/// story.commands   // [.rememberLine("inc", scope: "counter"), .send(line: "inc", action: {"increment":{}})]
/// story.screen     // the frame's text
/// ```
struct WindowStory {
  var model: WindowModel
  var now = Date(timeIntervalSince1970: 1_800_000_000)
  var columns: Int
  var rows: Int
  /// What the model asked for since the story began, in order.
  var commands: [WindowModel.Command] = []
  /// What the session shows, as the story's daemon last set it.
  var view: SessionView

  init(
    scope: String, window: WindowScope, state: JSONValue?, history: [String] = [], columns: Int = 60, rows: Int = 12,
    link: SessionView.Link = .connected, scopes: [String] = ["counter", "notes", "note:ID", "presence"]
  ) {
    self.columns = columns
    self.rows = rows
    view = SessionView(
      link: link, seq: state == nil ? nil : 1, user: "ann", shown: state.map { Shown(state: $0, confirmed: $0) })
    model = WindowModel(scope: scope, window: window, history: history, scopes: scopes)
    tell([])
  }

  /// The screen's text now.
  var screen: String {
    mutating get { model.frame(columns: columns, rows: rows, at: now).text }
  }

  /// The screen's rows now.
  var screenRows: [String] {
    mutating get { model.frame(columns: columns, rows: rows, at: now).rows }
  }

  /// Types `text` and presses Enter.
  mutating func type(_ text: String) {
    write(text)
    press(.enter)
  }

  /// Types `text` without pressing Enter.
  mutating func write(_ text: String) {
    for character in text { press(.character(character)) }
  }

  /// Presses `keys`, the screen drawn after each, as the terminal's shell draws it.
  mutating func press(_ keys: Key...) {
    for key in keys {
      commands += model.handle(.key(key), at: now)
      _ = model.frame(columns: columns, rows: rows, at: now)
    }
  }

  /// The session says `events`, and shows what the story's daemon set.
  mutating func tell(_ events: [WindowSession.Event]) {
    commands += model.handle(.session(events, view), at: now)
  }

  /// The daemon's state is now `state` at `seq`, with nothing pending.
  mutating func daemon(state: JSONValue, seq: Int64, events: [WindowSession.Event] = [.stateChanged]) {
    view.shown = Shown(state: state, confirmed: state)
    view.seq = seq
    tell(events)
  }

  /// The shell did the last ``WindowModel/Command/send(line:action:)``: queued as `cseq`.
  mutating func sendLast(as cseq: Int64) {
    guard case let .send(line, action)? = commands.last(where: { if case .send = $0 { true } else { false } }) else { return }
    commands += model.handle(.sent(cseq: cseq, line: line, action: action), at: now)
  }

  mutating func wait(_ seconds: Double) { now = now.addingTimeInterval(seconds) }

  /// The last command the model asked for.
  var lastCommand: WindowModel.Command? { commands.last }
}
