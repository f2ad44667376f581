import Concord
import ConcordTesting
import Foundation
import Testing

@testable import Workspace
@testable import WorkspaceWindows

/// Chat, told as a conversation.
@Suite struct ChatTests {
  func store(_ chat: Chat = Chat()) -> TestStore<Chat, Authored<ChatAction>> {
    TestStore(initialState: chat, reducer: Chat.reducer, environment: ())
  }

  @Test func carolMentionsBobAndLinksACard() async {
    let store = store()
    await store.send(.by("carol", .say(channel: "general", text: " hello @bob, see #42! "))) {
      $0.channels[id: "general"]?.messages.append(Message(id: 1, author: "carol", at: monday, text: "hello @bob, see #42!"))
      $0.channels[id: "general"]?.nextMessageID = 2
    }
    let message = store.state.channels[id: "general"]!.messages[id: 1]!
    #expect(message.mentions == ["bob"])
    #expect(message.cards == [42])
  }

  @Test func peopleEditAndDeleteOnlyTheirOwnMessages() async {
    var chat = Chat()
    chat.channels[id: "general"]?.messages = [
      Message(id: 1, author: "carol", at: monday, text: "hi all"),
      Message(id: 2, author: "bob", at: monday, text: "hello"),
    ]
    chat.channels[id: "general"]?.nextMessageID = 3
    let store = store(chat)
    let later = monday.addingTimeInterval(30)
    await store.send(.by("carol", .edit(channel: "general", message: 1, text: "hi all, see #7"), at: later)) {
      $0.channels[id: "general"]?.messages[id: 1]?.text = "hi all, see #7"
      $0.channels[id: "general"]?.messages[id: 1]?.editedAt = later
      $0.channels[id: "general"]?.messages[id: 1]?.cards = [7]
    }
    await store.send(
      .by("carol", .edit(channel: "general", message: 2, text: "not mine")),
      refusedWith: "you can only edit your own messages; message 2 is bob's")
    await store.send(
      .by("carol", .delete(channel: "general", message: 2)),
      refusedWith: "you can only delete your own messages; message 2 is bob's")
    await store.send(.by("bob", .delete(channel: "general", message: 2))) {
      $0.channels[id: "general"]?.messages[id: 2]?.text = ""
      $0.channels[id: "general"]?.messages[id: 2]?.deleted = true
    }
    await store.send(.by("bob", .edit(channel: "general", message: 2, text: "back")), refusedWith: "message 2 was deleted")
    await store.send(.by("bob", .delete(channel: "general", message: 9)), refusedWith: "there is no message 9 in general")
  }

  @Test func channelsAreOpenedOnceAndEmptyMessagesRefused() async {
    let store = store()
    await store.send(.by("alice", .createChannel(name: "random"))) { $0.channels.append(Channel(id: "random")) }
    await store.send(.by("alice", .createChannel(name: "random")), refusedWith: "there is already a channel random")
    await store.send(.by("alice", .createChannel(name: "two words")), refusedWith: "a channel's name is one word: letters, digits, - or _")
    await store.send(.by("alice", .say(channel: "random", text: "   ")), refusedWith: "the message is empty: say something")
    await store.send(.by("alice", .say(channel: "nowhere", text: "hi")), refusedWith: "there is no channel nowhere")
    await store.send(
      .by("alice", .say(channel: "random", text: String(repeating: "a", count: 2001))),
      refusedWith: "a message is at most 2000 characters")
  }
}
