import ConcordApp
import ConcordClient
import Foundation

/// What the session says: answers to lines typed here, the link coming and going, the queue
/// resent, and the daemon's log not carrying on from what this home saw.
extension WindowModel {
  mutating func take(_ events: [WindowSession.Event], view: SessionView, at now: Date) -> [Command] {
    self.view = view
    // What waits to be sent in this scope while the link is down: its replay is this window's
    // to count, whichever window of the home resends it (every window on the scope says the
    // same number; one on another scope does not count it).
    if !view.isConnected, let pending = view.shown?.pending { queuedHere.formUnion(pending.map(\.cseq)) }
    // What the session shows may have changed, even with nothing said (a second passed: other
    // windows and commands change the outbox).
    rendered = nil
    for event in events {
      switch event {
      case let .answered(cseq, .applied):
        let sent = typed.removeValue(forKey: cseq)
        // A success is news only when nothing was said since its line was typed: it must not
        // hide the error of a line typed after it.
        if let said = outcome?.at, let typedAt = sent?.at, said > typedAt, outcome?.queued != cseq { break }
        // In the app's words (`added #7 Fix login to todo`) when it has them, from the state
        // that now holds the action.
        let words = sent.flatMap { sent in view.shown.flatMap { window.outcome(sent.action, $0.confirmed) } }
        outcome = OutcomeLine("✓ " + (words ?? sent?.line ?? "done"), isError: false, at: now)
      case let .answered(cseq, .refused(reason)):
        let line = typed.removeValue(forKey: cseq).map { "\($0.line): " } ?? ""
        outcome = OutcomeLine("✗ \(line)\(reason)", isError: true, at: now)
      case let .resent(action, result, _):
        // The notice that it was queued is old news.
        if outcome?.queued == action.cseq { outcome = nil }
        // Another window's action, resent by this one: its own window counts it.
        guard queuedHere.remove(action.cseq) != nil else { break }
        // A refusal is shown until dismissed, in every window of the home (its own line).
        if case .refused = result { resent.refused += 1 }
        countReplayed(at: now)
      case let .queued(cseq, waiting):
        queuedHere.insert(cseq)
        // The app's reducer may already see that the daemon will refuse it: say so now.
        let doubt = view.shown?.refusals[cseq].map { "; it will likely be refused: \($0)" } ?? ""
        outcome = OutcomeLine(
          "queued while offline: \(typed[cseq]?.line ?? "an action") (\(waiting) to send)\(doubt)", isError: !doubt.isEmpty,
          at: now, queued: cseq)
      case let .logDiverged(.replaced(_, current)):
        let program = ProgramName.current
        outcome = OutcomeLine(
          "the daemon's log was replaced (\(current.prefix(8))…): the outbox is kept; see `\(program) outbox`", isError: true, at: now)
      case let .logDiverged(divergence):
        outcome = OutcomeLine("\(divergence); nothing is sent: \(divergence.decision)", isError: true, at: now)
      case let .disconnected(reason):
        connectionNote = OutcomeLine(reason, isError: true, at: now)
        resent = (0, 0)
      case .connected:
        // "back" only after a loss: the first connection is no news.
        connectionNote = connectionNote.map { _ in OutcomeLine("back", isError: false, at: now) }
        // What was queued is being sent (by this window or another): that it was is old news.
        if outcome?.queued != nil { outcome = nil }
      case let .error(text):
        // Not about a line typed (those come with their cseq): about the link.
        connectionNote = OutcomeLine(text, isError: true, at: now)
      case .stateChanged, .message:
        break
      }
    }
    // This window's queued actions that another window of the home resent: gone from the
    // outbox once answered.
    if view.isConnected, !queuedHere.isEmpty, let waiting = view.shown?.pending.map(\.cseq) {
      let answered = queuedHere.subtracting(waiting)
      queuedHere.subtract(answered)
      for _ in answered { countReplayed(at: now) }
    }
    return []
  }

  /// One more of this window's queued actions replayed: "back, N replayed (M refused)".
  private mutating func countReplayed(at now: Date) {
    resent.sent += 1
    let refused = resent.refused > 0 ? " (\(resent.refused) refused)" : ""
    connectionNote = OutcomeLine("back, \(resent.sent) replayed\(refused)", isError: false, at: now)
  }
}
