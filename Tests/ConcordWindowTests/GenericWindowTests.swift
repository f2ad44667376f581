import ConcordApp
import ConcordClient
import ConcordWindow
import ConcordWire
import Foundation
import SampleApp
import Testing

/// An app that gives no renderers and no words still gets windows people can use: the sample
/// app with its own look taken away shows its scopes as outlines, takes actions typed as JSON
/// (checked against the scope's action type before they are queued), names its actions' cases
/// in `help`, and marks what is pending.
@Suite struct GenericWindowTests {
  /// The sample app's windows with no look of its own: every scope generic.
  static let bare = ClientApp(hosting: SampleApp.hosted)

  static func window(_ name: String) -> WindowScope { bare.scope(named: name)! }

  static let milk: JSONValue = [["id": 1, "text": "buy milk", "done": false]]

  @Test func everyScopeOfAnAppWithoutWindowsGetsOne() {
    #expect(Self.bare.scopes.map(\.name) == ["counter", "notes", "note", "presence"])
    let withCounter = ClientApp(hosting: SampleApp.hosted, scopes: [SampleApp.client.scope(named: "counter")!])
    #expect(withCounter.scopes.map(\.name) == ["counter", "notes", "note", "presence"], "the app's own, then the rest")
  }

  @Test func theStateIsAnOutlineAndAnActionIsTypedAsJSON() {
    var story = WindowStory(scope: "notes", window: Self.window("notes"), state: Self.milk, columns: 100)
    let rows = story.screenRows
    #expect(rows[1] == "  - done: false")
    #expect(rows[2] == "    id: 1")
    #expect(rows[3] == "    text: buy milk")
    story.type(#"{"add":{"text":"eggs"}}"#)
    #expect(story.lastCommand == .send(line: #"{"add":{"text":"eggs"}}"#, action: ["add": ["text": "eggs"]]))
    story.type("add eggs")
    #expect(story.screen.contains("✗ notes takes actions as JSON (its actions: add, addLater, remove)"))
    story.type(#"{"paint":{"colour":"red"}}"#)
    #expect(story.screen.contains("✗ not one of notes's actions (its actions: add, addLater, remove)"))
    #expect(story.commands.filter { if case .send = $0 { true } else { false } }.count == 1, "nothing that is not an action is queued")
  }

  @Test func helpNamesTheActionsCasesWithAnExampleOfEach() {
    var story = WindowStory(scope: "counter", window: Self.window("counter"), state: 2, rows: 20)
    story.type("help")
    let screen = story.screen
    #expect(screen.contains("Type an action as JSON, one of:"))
    #expect(screen.contains(#"increment  {"increment":{}}"#))
    #expect(screen.contains(#"add        {"add":{"amount":5}}"#))
    #expect(Self.window("presence").help == ["presence is read only: it shows, and takes no actions."])
  }

  @Test func aReadOnlyScopeTakesNothing() {
    var story = WindowStory(scope: "presence", window: Self.window("presence"), state: ["w-1": ["notes"]])
    story.type(#"{"attached":{"window":"w","scope":"x"}}"#)
    #expect(story.screen.contains("✗ presence is read only"))
    #expect(story.screen.contains("w-1:"))
  }

  @Test func whatIsPendingIsMarkedAndTheMarkGoesWhenTheDaemonHasIt() {
    let eggs: JSONValue = [["id": 1, "text": "buy milk", "done": false], ["id": 2, "text": "eggs", "done": false]]
    var story = WindowStory(scope: "notes", window: Self.window("notes"), state: Self.milk, link: .offline(retryingAt: nil))
    story.type(#"{"add":{"text":"eggs"}}"#)
    story.sendLast(as: 1)
    let queued = QueuedAction(cseq: 1, scope: "notes", action: ["add": ["text": "eggs"]], queuedAt: story.now)
    story.view.shown = Shown(state: eggs, confirmed: Self.milk, pending: [queued])
    story.tell([.queued(cseq: 1, waiting: 1), .stateChanged])
    let rows = story.screenRows
    #expect(rows[1] == "  - done: false", "what the daemon has is not marked")
    #expect(rows[4] == "◌ - done: false")
    #expect(rows[5] == "◌   id: 2")
    #expect(rows[6] == "◌   text: eggs")
    story.view.link = .connected
    story.daemon(state: eggs, seq: 2, events: [.connected(user: "ann", logID: "l"), .resent(queued, .applied, entry: 2)])
    #expect(!story.screen.contains("◌"))
  }
}
