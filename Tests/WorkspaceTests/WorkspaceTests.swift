import Clocks
import ConcordTesting
import Foundation
import Testing

@testable import Workspace
@testable import WorkspaceWindows

/// The features together: presence feeds the board's people, and the feed tells the story.
@Suite struct WorkspaceTests {
  @Test func openingAWindowJoinsTheBoardAndTheFeedSaysWhatHappened() async {
    let store = Workspace.State.store(Workspace.State())
    store.exhaustivity = .off
    await store.send(.board("alice", .assign(id: 1, user: "bob")), refusedWith: "nobody called bob has joined this workspace; invite them first: `invite bob`")
    await store.send(.opensWindow("alice"))
    await store.send(.opensWindow("bob", on: "chat:general"))
    await store.send(.opensWindow("bob", on: "card:1", window: "w-bob-2"))
    #expect(store.state.board.present.people == ["alice", "bob"])
    #expect(store.state.presence.windows.count == 3)
    await store.send(.board("alice", .addCard(title: "Fix login", column: "doing")))
    await store.send(.board("alice", .assign(id: 1, user: "bob")))
    await store.send(.board("bob", .moveCard(id: 1, column: "done", position: nil)))
    await store.send(.chat("bob", .say(channel: "general", text: "done with #1")))
    await store.send(.board("bob", .undo))
    #expect(store.state.activity.items.map { "\($0.user ?? "") \($0.text)" } == [
      "alice joined the workspace",
      "bob joined the workspace",
      "alice added #1 Fix login to doing",
      "alice assigned #1 Fix login to bob",
      "bob moved #1 Fix login from doing to done",
      "bob in general: done with #1",
      // Undo names the change it took back.
      "bob undid: moved #1 Fix login from doing to done",
    ])
    // A restart: the windows from before are gone; the people stay.
    await store.send(.booted)
    #expect(store.state.presence.windows.isEmpty)
    #expect(store.state.board.present.people == ["alice", "bob"])
  }

  /// The feed quotes a long chat message cut to 60 characters. The feed is state, rebuilt by
  /// every replay of the log, so the cut is the reducer's own, not a display helper's.
  @Test func theFeedQuotesALongMessageCutTo60Characters() async {
    let store = Workspace.State.store(Workspace.State())
    store.exhaustivity = .off
    await store.send(.opensWindow("alice"))
    let long = String(repeating: "word ", count: 30)
    await store.send(.chat("alice", .say(channel: "general", text: long)))
    await store.send(.chat("alice", .say(channel: "general", text: String(long.prefix(60)))))
    #expect(store.state.activity.items.suffix(2).map(\.text) == [
      "in general: " + String(long.prefix(59)) + "…",
      "in general: " + String(long.prefix(60)),
    ])
  }

  /// Snapshots and the log keep the state and actions as JSON: a busy workspace — cards with
  /// dates, labels and moves, undo steps, reminders, presence, chat — comes back equal.
  @Test func aBusyWorkspaceSurvivesTheLogsJSON() async throws {
    let store = Workspace.State.store(Workspace.State())
    store.exhaustivity = .off
    let actions: [Workspace.Action] = [
      .opensWindow("alice"),
      .board("alice", .addCard(title: "Fix login", column: nil)),
      .board("alice", .setDue(id: 1, due: monday.addingTimeInterval(60))),
      .board("alice", .label(id: 1, label: "bug")),
      .board("alice", .moveCard(id: 1, column: "doing", position: nil)),
      .board("alice", .addCard(title: "Ship", column: "done")),
      .board("alice", .undo),
      .chat("alice", .say(channel: "general", text: "see #1")),
      .reminders(.raise(card: 1, due: monday.addingTimeInterval(60))),
    ]
    for action in actions {
      await store.send(action)
      #expect(try JSONDecoder().decode(Workspace.Action.self, from: JSONEncoder().encode(action)) == action)
    }
    let state = store.state
    #expect(state.board.canRedo && state.reminders.raised.count == 1 && !state.presence.windows.isEmpty)
    #expect(try JSONDecoder().decode(Workspace.State.self, from: JSONEncoder().encode(state)) == state)
  }
}
