import ConcordApp
import Foundation

/// A line entered: the answer to a question, one of the window's own words, or an action in
/// the scope's words or as JSON.
extension WindowModel {
  mutating func enter(_ line: String, at now: Date) -> [Command] {
    let text = line.trimmingCharacters(in: .whitespaces)
    let wasShowingHelp = mode.helpScroll != nil
    // A line may change what the body shows (an action applied at once, the help): render anew.
    rendered = nil
    if case let .confirming(waiting, _) = mode {
      mode = .scope
      if ["y", "yes"].contains(text.lowercased()) { return send(waiting, at: now) }
      outcome = OutcomeLine("not done: \(waiting)", isError: false, at: now)
      return []
    }
    mode = .scope
    guard !text.isEmpty else { return [] }
    let remember = Command.rememberLine(text, scope: window.name)
    let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    // The window's own words: a whole line each, so that a chat line starting with one is said.
    let openings = joinsChannels ? ["/open": "", "/join": "chat:"] : ["/open": ""]
    let opening = words.count == 2 ? openings[words[0].lowercased()] : nil
    switch text.lowercased() {
    case "/open":
      let named = scopes.isEmpty ? "such as /open \(scope)" : "one of \(scopes.joined(separator: ", "))"
      outcome = OutcomeLine("✗ /open takes a scope, \(named)", isError: true, at: now)
    case "/join" where joinsChannels:
      outcome = OutcomeLine("✗ /join takes a channel: /join general", isError: true, at: now)
    case "q", "quit", "exit", "/q", "/quit":
      return [remember, .quit]
    case "help", "?", "/help":
      mode = wasShowingHelp ? .scope : .help(ScrollPosition(followsEnd: false))
    case "/dismiss":
      // The refusal shown, the oldest: the next one shows in its place.
      let refused = view.refusedOnResend
      let left = max(0, refused.count - 1)
      outcome = OutcomeLine(refused.isEmpty ? "nothing to dismiss" : left > 0 ? "dismissed; \(left) more" : "dismissed", isError: false, at: now)
      return [remember, .dismissRefused(upTo: refused.first?.cseq ?? 0)]
    case "/dismiss all":
      // Every refusal shown, at once: they are the home's, so they go from every window.
      let refused = view.refusedOnResend
      outcome = OutcomeLine(
        refused.isEmpty ? "nothing to dismiss" : "dismissed \(refused.count) refusal\(refused.count == 1 ? "" : "s")", isError: false,
        at: now)
      return [remember, .dismissRefused(upTo: refused.map(\.cseq).max() ?? 0)]
    case _ where opening != nil:
      return [remember, .open(scope: opening! + words[1])]
    default:
      if let question = window.confirmation(text) {
        mode = .confirming(line: text, question: question)
      } else {
        return [remember] + send(text, at: now)
      }
    }
    return [remember]
  }

  /// The line as the scope's action, to send; or why it is none, on the outcome line.
  private mutating func send(_ text: String, at now: Date) -> [Command] {
    do {
      return [.send(line: text, action: try window.action(typed: text, in: scope))]
    } catch {
      outcome = OutcomeLine("✗ " + error.description, isError: true, at: now)
      return []
    }
  }

  /// Shows `scope` instead of the one shown: its own history, scroll and typed lines.
  mutating func show(_ scope: String, through window: WindowScope, history: [String], at now: Date) -> [Command] {
    self.scope = scope
    self.window = window
    editor = LineEditor(history: history)
    scroll = ScrollPosition(followsEnd: window.showsEnd)
    sideways = 0
    mode = .scope
    typed = [:]
    resent = (0, 0)
    connectionNote = nil
    rendered = nil
    view = SessionView(user: view.user)
    outcome = OutcomeLine("opened \(scope)", isError: false, at: now)
    return []
  }
}
