import Concord
import Foundation

/// Reminders: a card with a due date raises a reminder when it falls due.
///
/// Each card not done and not archived has a timer until its due date (an effect with the
/// card's id, cancelled or set again whenever the card's date, column or archive changes). A
/// timer that fires asks for the reminder to be raised through ``delivery``, one at a time, so
/// a burst of due cards arrives as a steady trickle rather than all at once. After a restart
/// the timers are set again from the state (``Workspace/Action/booted``).
public struct Reminders: Codable, Equatable, Sendable {
  /// Reminders raised and not yet resolved, oldest first. A reminder goes away when its card is
  /// done, archived or given another date.
  public var raised: [Reminder]
  /// Reminders a person put away: not raised again while their card keeps that date.
  public var dismissed: [Reminder]

  public init() {
    raised = []
    dismissed = []
  }

  func isRaised(card: Int, due: Date) -> Bool {
    raised.contains { $0.card == card && $0.due == due }
  }

  /// Raised, or raised and put away: either way not to be raised again.
  func wasRaised(card: Int, due: Date) -> Bool {
    isRaised(card: card, due: due) || dismissed.contains { $0.card == card && $0.due == due }
  }
}

public struct Reminder: Codable, Equatable, Sendable {
  public var card: Int
  public var due: Date

  public init(card: Int, due: Date) {
    self.card = card
    self.due = due
  }
}

public enum ReminderAction: Codable, Equatable, Sendable {
  /// A card's timer fired.
  case fellDue(card: Int, due: Date)
  /// The reminder's turn in the delivery queue came.
  case raise(card: Int, due: Date)
}

/// The effect id of one card's timer.
struct ReminderTimer: Hashable, Sendable {
  let card: Int
}

extension Reminders {
  /// Raised reminders are delivered one at a time, this far apart.
  public static let delivery = EffectQueue("reminder delivery", .oldestSuspendingNew(1), delay: .milliseconds(250))

  /// When a card's reminder is due, or nil when it needs none (no date, done or archived).
  static func dueDate(of card: Card?, on board: Board) -> Date? {
    guard let card, let due = card.due, !card.archived, !board.isDone(card) else { return nil }
    return due
  }

  public static let reducer = Reducer<Workspace.State, Workspace.Action, Workspace.Environment> { state, action, _ in
    if case let .board(authored) = action, case let .dismissReminder(card) = authored.action {
      guard let reminder = state.reminders.raised.first(where: { $0.card == card }) else {
        return .refuse("no reminder is raised for #\(card)")
      }
      state.reminders.raised.removeAll { $0.card == card }
      state.reminders.dismissed.append(reminder)
      return .none
    }
    guard case let .reminders(action) = action else { return .none }
    let board = state.board.present
    /// Whether `card` is still due at `due` and not reminded of yet.
    func isPending(_ card: Int, _ due: Date) -> Bool {
      dueDate(of: board.cards[id: card], on: board) == due && !state.reminders.wasRaised(card: card, due: due)
    }
    switch action {
    case let .fellDue(card, due):
      // A timer that outlived its card's date (it raced a change) asks for nothing.
      guard isPending(card, due) else { return .none }
      return Effect.send(Workspace.Action.reminders(.raise(card: card, due: due))).queued(in: delivery)
    case let .raise(card, due):
      // Checked again: the card may have changed while the raise waited in the queue.
      guard isPending(card, due) else { return .none }
      state.reminders.raised.append(Reminder(card: card, due: due))
      return .none
    }
  }

  /// One card's timer, replacing the one it had.
  static func timer(card: Int, due: Date, environment: Workspace.Environment) -> Effect<Workspace.Action> {
    Effect.run { send in
      // A day at most at a time: a window may set any date, and the wait until one no clock
      // reaches (year 10^292) is no whole number of milliseconds; converting it would trap, in
      // the daemon, and again at every boot (which sets the timers again).
      var wait = due.timeIntervalSince(environment.now())
      while wait > 0 {
        try await environment.clock.sleep(for: .milliseconds(Int64((min(wait, 86_400) * 1000).rounded(.up))))
        wait = due.timeIntervalSince(environment.now())
      }
      await send(.reminders(.fellDue(card: card, due: due)))
    }
    .cancellable(id: ReminderTimer(card: card), cancelInFlight: true)
  }

  /// Timers for every card that needs one and has not had its reminder: after a restart.
  static func setAll(_ state: Workspace.State, environment: Workspace.Environment) -> Effect<Workspace.Action> {
    let board = state.board.present
    return .merge(
      board.cards.compactMap { card in
        guard let due = dueDate(of: card, on: board), !state.reminders.wasRaised(card: card.id, due: due) else { return nil }
        return timer(card: card.id, due: due, environment: environment)
      })
  }
}

extension Reducer where State == Workspace.State, Action == Workspace.Action, Environment == Workspace.Environment {
  /// Keeps the reminders in step with the board, whatever changed it (an edit, a move, an
  /// undo): a card whose due date, column or archive changed gets its timer set again or
  /// cancelled, and loses a reminder raised for the old date.
  func remindingOfDueCards() -> Reducer {
    Reducer { state, action, environment in
      let before = state.board.present
      let effect = reduce(into: &state, action: action, environment: environment)
      let after = state.board.present
      guard effect.refusal == nil, before != after else { return effect }
      var effects = [effect]
      // Only a card with a due date, before or after, has a timer to start or cancel. Most have
      // none, and are passed over without being copied: this runs on every action, and a
      // window predicting its queued actions runs it once for each.
      for index in after.cards.indices where after.cards[index].due != nil {
        let card = after.cards[index]
        let old = Reminders.dueDate(of: before.cards[id: card.id], on: before)
        let new = Reminders.dueDate(of: card, on: after)
        guard old != new else { continue }
        effects.append(
          new.map { Reminders.timer(card: card.id, due: $0, environment: environment) } ?? .cancel(id: ReminderTimer(card: card.id)))
      }
      for index in before.cards.indices where before.cards[index].due != nil {
        let card = before.cards[index]
        // Gone (its timer goes with it), or its date taken away while it had a timer.
        let now = after.cards[id: card.id]
        guard now == nil || (now?.due == nil && Reminders.dueDate(of: card, on: before) != nil) else { continue }
        effects.append(.cancel(id: ReminderTimer(card: card.id)))
      }
      state.reminders.raised.removeAll { Reminders.dueDate(of: after.cards[id: $0.card], on: after) != $0.due }
      state.reminders.dismissed.removeAll { Reminders.dueDate(of: after.cards[id: $0.card], on: after) != $0.due }
      return .merge(effects)
    }
  }
}
