import Clocks
import ConcordTesting
import Foundation
import Testing

@testable import Workspace

/// The features together: presence feeds the board's people, and the feed tells the story.
@Suite struct WorkspaceTests {
  @Test func openingAWindowJoinsTheBoardAndTheFeedSaysWhatHappened() async {
    let store = TestStore(
      initialState: Workspace.State(), reducer: Workspace.reducer, environment: .test(clock: TestClock()))
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
      "bob undid their last change",
    ])
    // A restart: the windows from before are gone; the people stay.
    await store.send(.booted)
    #expect(store.state.presence.windows.isEmpty)
    #expect(store.state.board.present.people == ["alice", "bob"])
  }

  @Test func theStateSurvivesTheLogsJSON() throws {
    var state = Workspace.State()
    state.chat.channels[id: "general"]?.messages.append(Message(id: 1, author: "a", at: monday, text: "hi #2"))
    let data = try JSONEncoder().encode(state)
    #expect(try JSONDecoder().decode(Workspace.State.self, from: data) == state)
    let action = Workspace.Action.board("alice", .setDue(id: 3, due: monday))
    #expect(try JSONDecoder().decode(Workspace.Action.self, from: JSONEncoder().encode(action)) == action)
  }
}
