import Clocks
import ConcordTesting
import Foundation
import Testing

@testable import Concord
@testable import Workspace
@testable import WorkspaceWindows

/// Reminders, on a test clock: they fire when a card falls due, follow every change to the
/// card, come back after a restart, and arrive one at a time.
@Suite struct RemindersTests {
  static let inAnHour = monday.addingTimeInterval(3600)

  /// A workspace whose todo column holds `cards` (number, title, due date).
  static func workspace(_ cards: [(Int, String, Date?)]) -> Workspace.State {
    var board = Board.with(people: ["alice"])
    for (id, title, due) in cards {
      var card = Card(id: id, title: title, column: 1, by: "alice", at: monday)
      card.due = due
      board.cards.append(card)
      board.columns[id: 1]?.cards.append(id)
      board.nextCardID = id + 1
    }
    board.columns[id: 1]?.limit = nil
    return Workspace.State(board: board)
  }

  func store(_ state: Workspace.State, clock: TestClock<Duration>) -> TestStore<Workspace.State, Workspace.Action> {
    Workspace.State.store(state, clock: clock)
  }

  /// The board after `action`, by the board's own reducer, recorded as an undo step.
  /// The board after `user`'s `action`, with the feed's line for it, which the board keeps as
  /// the words of its last change.
  static func step(_ state: inout Workspace.State, _ user: String, _ action: BoardAction, said item: ActivityItem) {
    state.board.record(state.board.present.applying(action, by: user))
    state.board.amendPresent { $0.lastChange = item.text }
    state.activity.items.append(item)
  }

  @Test func aDueCardRaisesItsReminderWhenItsTimeComes() async {
    let clock = TestClock()
    let store = store(Self.workspace([(1, "Fix login", nil)]), clock: clock)
    await store.send(.board("alice", .setDue(id: 1, due: Self.inAnHour))) {
      Self.step(&$0, "alice", .setDue(id: 1, due: Self.inAnHour), said: ActivityItem(at: monday, user: "alice", text: "set #1 Fix login due", date: Self.inAnHour))
          }
    await clock.advance(by: .seconds(3599))
    #expect(store.unreceivedCount == 0, "nothing is due a second early")
    await clock.advance(by: .seconds(1))
    await store.receive(.reminders(.fellDue(card: 1, due: Self.inAnHour)))
    await clock.advance(by: .milliseconds(250))
    await store.receive(.reminders(.raise(card: 1, due: Self.inAnHour))) {
      $0.reminders.raised = [Reminder(card: 1, due: Self.inAnHour)]
      $0.activity.items.append(ActivityItem(at: nil, user: nil, text: "#1 Fix login is due", date: Self.inAnHour))
    }
    await store.finish()
  }

  /// A person puts a raised reminder away: it leaves the board, is not raised again after a
  /// restart, and comes back only when the card gets another date; nothing to put away is refused.
  @Test func aDismissedReminderStaysAwayUntilTheDateChanges() async {
    let clock = TestClock()
    let store = store(Self.workspace([(1, "Fix login", Self.inAnHour)]), clock: clock)
    await store.send(.board("alice", .dismissReminder(id: 1)), refusedWith: "no reminder is raised for #1")
    await store.send(.booted)
    await clock.advance(by: .seconds(3600))
    await store.receive(.reminders(.fellDue(card: 1, due: Self.inAnHour)))
    await clock.advance(by: .milliseconds(250))
    await store.receive(.reminders(.raise(card: 1, due: Self.inAnHour))) {
      $0.reminders.raised = [Reminder(card: 1, due: Self.inAnHour)]
      $0.activity.items.append(ActivityItem(at: nil, user: nil, text: "#1 Fix login is due", date: Self.inAnHour))
    }
    await store.send(.board("alice", .dismissReminder(id: 1))) {
      $0.reminders.raised = []
      $0.reminders.dismissed = [Reminder(card: 1, due: Self.inAnHour)]
    }
    // A restart sets the timers again: not this one's.
    await store.send(.booted)
    await clock.advance(by: .seconds(60))
    #expect(store.unreceivedCount == 0)
    // Another date is another reminder.
    let later = Self.inAnHour.addingTimeInterval(3600)
    await store.send(.board("alice", .setDue(id: 1, due: later))) {
      Self.step(&$0, "alice", .setDue(id: 1, due: later), said: ActivityItem(at: monday, user: "alice", text: "set #1 Fix login due", date: later))
      $0.reminders.dismissed = []
    }
    await clock.advance(by: .seconds(3600))
    await store.receive(.reminders(.fellDue(card: 1, due: later)))
    await clock.advance(by: .milliseconds(250))
    await store.receive(.reminders(.raise(card: 1, due: later))) {
      $0.reminders.raised = [Reminder(card: 1, due: later)]
      $0.activity.items.append(ActivityItem(at: nil, user: nil, text: "#1 Fix login is due", date: later))
    }
    await store.finish()
  }

  @Test func aCardMovedToDoneHasItsTimerCancelled() async {
    let clock = TestClock()
    let store = store(Self.workspace([(1, "Fix login", Self.inAnHour)]), clock: clock)
    await store.send(.booted)
    await store.send(.board("alice", .moveCard(id: 1, column: "done", position: nil))) {
      Self.step(&$0, "alice", .moveCard(id: 1, column: "done", position: nil), said: ActivityItem(at: monday, user: "alice", text: "moved #1 Fix login from todo to done"))
          }
    await clock.advance(by: .seconds(7200))
    // Exhaustive: no reminder arrived, and no timer is left running.
    await store.finish()
  }

  @Test func anArchivedCardHasItsTimerCancelled() async {
    let clock = TestClock()
    let store = store(Self.workspace([(1, "Fix login", Self.inAnHour)]), clock: clock)
    await store.send(.booted)
    await store.send(.board("alice", .archive(id: 1))) {
      Self.step(&$0, "alice", .archive(id: 1), said: ActivityItem(at: monday, user: "alice", text: "archived #1 Fix login"))
          }
    await clock.advance(by: .seconds(7200))
    // Exhaustive: no reminder arrived, and no timer is left running.
    await store.finish()
  }

  @Test func aRaisedReminderGoesAwayWhenItsCardIsArchived() async {
    var state = Self.workspace([(1, "Fix login", monday)])
    state.reminders.raised = [Reminder(card: 1, due: monday)]
    let store = store(state, clock: TestClock())
    await store.send(.board("alice", .archive(id: 1))) {
      Self.step(&$0, "alice", .archive(id: 1), said: ActivityItem(at: monday, user: "alice", text: "archived #1 Fix login"))
      $0.reminders.raised = []
          }
    await store.finish()
  }

  @Test func aNewDueDateReschedulesTheReminder() async {
    let clock = TestClock()
    let store = store(Self.workspace([(1, "Fix login", nil)]), clock: clock)
    let inTwoHours = monday.addingTimeInterval(7200)
    await store.send(.board("alice", .setDue(id: 1, due: Self.inAnHour))) {
      Self.step(&$0, "alice", .setDue(id: 1, due: Self.inAnHour), said: ActivityItem(at: monday, user: "alice", text: "set #1 Fix login due", date: Self.inAnHour))
          }
    await clock.advance(by: .seconds(1800))
    await store.send(.board("alice", .setDue(id: 1, due: inTwoHours))) {
      Self.step(&$0, "alice", .setDue(id: 1, due: inTwoHours), said: ActivityItem(at: monday, user: "alice", text: "set #1 Fix login due", date: inTwoHours))
    }
    await clock.advance(by: .seconds(1800))  // the old time passes: nothing
    await clock.advance(by: .seconds(3600))
    await store.receive(.reminders(.fellDue(card: 1, due: inTwoHours)))
    await clock.advance(by: .milliseconds(250))
    await store.receive(.reminders(.raise(card: 1, due: inTwoHours))) {
      $0.reminders.raised = [Reminder(card: 1, due: inTwoHours)]
      $0.activity.items.append(ActivityItem(at: nil, user: nil, text: "#1 Fix login is due", date: inTwoHours))
    }
    await store.finish()
  }

  @Test func undoingADueDateCancelsItsReminder() async {
    let clock = TestClock()
    let store = store(Self.workspace([(1, "Fix login", nil)]), clock: clock)
    store.exhaustivity = .off
    await store.send(.board("alice", .setDue(id: 1, due: Self.inAnHour)))
    await store.send(.board("alice", .undo))
    #expect(store.state.board.present.cards[id: 1]?.due == nil)
    await clock.advance(by: .seconds(7200))
    #expect(store.unreceivedCount == 0)
    store.exhaustivity = .on
    await store.finish()
  }

  /// Effects never run during replay: the state says which cards wait for a reminder, and the
  /// `booted` action sets their timers again. A reminder already raised is not raised twice.
  @Test func afterARestartTheTimersAreSetAgainFromTheState() async {
    let clock = TestClock()
    var replayed = Self.workspace([(1, "Fix login", Self.inAnHour), (2, "Ship", monday.addingTimeInterval(-60))])
    replayed.reminders.raised = [Reminder(card: 2, due: monday.addingTimeInterval(-60))]
    let store = store(replayed, clock: clock)
    await store.send(.booted)
    await clock.advance(by: .seconds(3600))
    await store.receive(.reminders(.fellDue(card: 1, due: Self.inAnHour)))
    await clock.advance(by: .milliseconds(250))
    await store.receive(.reminders(.raise(card: 1, due: Self.inAnHour))) {
      $0.reminders.raised.append(Reminder(card: 1, due: Self.inAnHour))
      $0.activity.items = [ActivityItem(at: nil, user: nil, text: "#1 Fix login is due", date: Self.inAnHour)]
    }
    await store.finish()
  }

  @Test func aBurstOfDueCardsIsDeliveredOneAtATime() async {
    let clock = TestClock()
    let cards = (1...3).map { ($0, "Card \($0)", Optional(Self.inAnHour)) }
    let store = store(Self.workspace(cards), clock: clock)
    await store.send(.booted)
    await clock.advance(by: .seconds(3600))
    var fell: Set<Int> = []
    for _ in 1...3 {
      await store.receive(where: {
        guard case let .reminders(.fellDue(card, _)) = $0 else { return false }
        return fell.insert(card).inserted
      })
    }
    // One reminder per quarter second, not three at once.
    var raised: [Int] = []
    for step in 1...3 {
      await clock.advance(by: .milliseconds(249))
      #expect(store.unreceivedCount == 0, "reminder \(step) came early")
      await clock.advance(by: .milliseconds(1))
      await store.receive(where: {
        guard case let .reminders(.raise(card, _)) = $0 else { return false }
        raised.append(card)
        return true
      }) {
        $0.reminders.raised.append(Reminder(card: raised.last!, due: Self.inAnHour))
        $0.activity.items.append(
          ActivityItem(at: nil, user: nil, text: "#\(raised.last!) Card \(raised.last!) is due", date: Self.inAnHour))
      }
    }
    #expect(Set(raised) == [1, 2, 3])
    await store.finish()
  }
}
