import ConcordApp
import ConcordClient
import ConcordWindow
import ConcordWire
import Foundation
import SampleApp
import Testing

/// Every key of the full-screen window and every mode, told to the window model alone: what a
/// person types and presses, and what the screen then shows and the window asks the shell to do.
@Suite struct WindowModelKeyTests {
  static let counter = SampleApp.client.scope(named: "counter")!
  static let notes = SampleApp.client.scope(named: "notes")!
  static let note = SampleApp.client.scope(named: "note")!

  /// `count` notes, `note N` each.
  static func notes(_ count: Int) -> JSONValue {
    .array((1...count).map { ["id": .integer(Int64($0)), "text": .string("note \($0)"), "done": false] })
  }

  @Test func aLineInTheScopesWordsIsSentRememberedAndAnswered() {
    var story = WindowStory(scope: "counter", window: Self.counter, state: 3)
    #expect(story.screen.contains("Count: 3"))
    story.type("inc")
    #expect(story.commands == [.rememberLine("inc", scope: "counter"), .send(line: "inc", action: ["increment": [:]])])
    story.sendLast(as: 7)
    story.daemon(state: 4, seq: 2, events: [.stateChanged, .answered(cseq: 7, .applied)])
    #expect(story.screen.contains("Count: 4"))
    #expect(story.screen.contains("✓ inc"))
    story.wait(5.5)
    #expect(!story.screen.contains("✓ inc"), "news fades after 5 s")
  }

  @Test func aMistakeIsSaidAndNothingIsSentARefusalStaysLonger() {
    var story = WindowStory(scope: "counter", window: Self.counter, state: 0)
    story.type("fly")
    #expect(story.screen.contains(#"✗ no command "fly""#))
    story.type(#"{"nope":1}"#)
    #expect(story.screen.contains(#"✗ "nope" is not one of counter's actions"#))
    #expect(!story.commands.contains { if case .send = $0 { true } else { false } })
    story.type("dec")
    story.sendLast(as: 1)
    story.tell([.answered(cseq: 1, .refused(reason: "the counter is already at zero"))])
    #expect(story.screen.contains("✗ dec: the counter is already at zero"))
    story.wait(29)
    #expect(story.screen.contains("already at zero"), "an error stays 30 s")
    story.wait(2)
    #expect(!story.screen.contains("already at zero"))
  }

  @Test func aSuccessDoesNotHideTheErrorOfALineTypedAfterIt() {
    var story = WindowStory(scope: "counter", window: Self.counter, state: 0)
    story.type("inc")
    story.sendLast(as: 1)
    story.wait(0.1)
    story.type("fly")
    story.wait(0.1)
    story.daemon(state: 1, seq: 2, events: [.answered(cseq: 1, .applied)])
    #expect(story.screen.contains(#"no command "fly""#))
    #expect(!story.screen.contains("✓ inc"))
  }

  @Test(arguments: ["q", "quit", "exit", "/q", "/quit", " Q "])
  func aWordThatLeavesLeaves(_ word: String) {
    var story = WindowStory(scope: "counter", window: Self.counter, state: 0)
    story.type(word)
    #expect(story.lastCommand == .quit)
    #expect(story.model.hasQuit)
    story.type("inc")
    #expect(story.lastCommand == .quit, "nothing is taken after leaving")
  }

  @Test func ctrlCLeavesAlwaysCtrlDOnlyOnAnEmptyLine() {
    var story = WindowStory(scope: "counter", window: Self.counter, state: 0)
    story.write("quick")
    story.press(.home, .control("d"))
    #expect(story.model.editor.text == "uick", "Ctrl-D deletes under the cursor on a line")
    #expect(!story.model.hasQuit)
    story.press(.control("c"))
    #expect(story.model.hasQuit)

    var empty = WindowStory(scope: "counter", window: Self.counter, state: 0)
    empty.press(.control("d"))
    #expect(empty.lastCommand == .quit)
  }

  @Test func helpShowsTheScopesWordsScrollsOnItsOwnAndEscOrEnterGoesBack() {
    var story = WindowStory(scope: "notes", window: Self.notes, state: Self.notes(30), rows: 10)
    story.type("help")
    #expect(story.model.mode.isHelp)
    #expect(story.screen.contains("The words of notes"))
    #expect(!story.screen.contains("note 1"))
    story.press(.pageDown)
    #expect(story.screen.contains("/dismiss"), "the window's own words come last")
    story.press(.escape)
    #expect(story.model.mode == .scope)
    #expect(story.screen.contains("note 1"), "the state kept its place while the help scrolled")
    story.type("?")
    #expect(story.model.mode.isHelp)
    story.press(.enter)
    #expect(story.model.mode == .scope, "Enter on an empty line goes back")
    story.type("help")
    story.type("help")
    #expect(story.model.mode == .scope, "help again goes back")
  }

  @Test func aShortWindowsHelpListsTheWordsAloneAndPointsToTheExamples() {
    var story = WindowStory(scope: "notes", window: Self.notes, state: Self.notes(1), columns: 100, rows: 8)
    story.type("help")
    story.press(.pageDown)
    #expect(story.screen.contains("words notes shows an example of each"))
    #expect(!story.screen.contains("e.g."), "the examples are left out")
  }

  @Test func aLineThatCannotBeUndoneAsksFirstAndOnlyYesDoesIt() {
    let window = WindowScope.scope(
      "counter", render: { (count: Int, _: RenderContext<Int>) in ["Count: \(count)"] },
      commands: [
        WindowCommand<SampleApp.CounterAction>(
          "add", usage: "add N", help: "add N", confirm: { $0.all.first?.hasPrefix("-") == true ? "take some away for good" : nil }
        ) { .add(amount: try $0.integer(0, "N")) }
      ])
    var story = WindowStory(scope: "counter", window: window, state: 5)
    story.type("add -3")
    #expect(story.model.mode == .confirming(line: "add -3", question: "take some away for good"))
    #expect(story.screen.contains("take some away for good? y and Enter does it"))
    #expect(!story.commands.contains { if case .send = $0 { true } else { false } })
    story.type("n")
    #expect(story.screen.contains("not done: add -3"))
    story.type("add -3")
    story.type("y")
    #expect(story.lastCommand == .send(line: "add -3", action: ["add": ["amount": -3]]))
    story.type("add 2")
    #expect(story.lastCommand == .send(line: "add 2", action: ["add": ["amount": 2]]), "a line that can be undone goes at once")
  }

  @Test func pagesTheWheelAndHomeEndOnAnEmptyLineScrollTheState() {
    var story = WindowStory(scope: "notes", window: Self.notes, state: Self.notes(30), rows: 12)
    #expect(story.screen.contains("1. note 1"))
    #expect(story.screenRows[0].contains("more below (PgDn)"))
    story.press(.pageDown)
    #expect(!story.screen.contains("1. note 1 "))
    #expect(story.screen.contains("8. note 8"), "a page less one line: the last line stays in sight")
    #expect(story.screenRows[0].contains("↑↓ PgUp/PgDn"))
    story.press(.end)
    #expect(story.screen.contains("30. note 30"))
    #expect(story.screenRows[0].contains("more above (PgUp)"))
    story.press(.home)
    #expect(story.screen.contains("1. note 1"))
    story.press(.wheelDown)
    #expect(story.model.scroll.top == 3)
    story.press(.wheelUp)
    #expect(story.model.scroll.top == 0)
    // On a line being typed, Home and End move the cursor instead.
    story.write("add x")
    story.press(.end)
    #expect(story.model.scroll.top == 0)
    story.press(.home)
    #expect(story.model.editor.cursor == 0)
  }

  @Test func leftAndRightOnAnEmptyLineScrollSidewaysNoFurtherThanTheWidestLine() {
    let wide = WindowScope(
      name: "wide", render: { _, _ in ["a" + String(repeating: "-", count: 98) + "z", "short"] }, parse: { _ in [:] }, help: [])
    var story = WindowStory(scope: "wide", window: wide, state: 0, columns: 60)
    #expect(story.screenRows[0].contains("more right (→)"))
    story.press(.right)
    #expect(story.model.sideways == 20, "a third of the screen")
    #expect(story.screenRows[0].contains("← → more"))
    story.press(.right, .right, .right)
    _ = story.screen
    #expect(story.model.sideways == 40, "not past the widest line")
    #expect(story.screenRows[1].hasSuffix("z"))
    #expect(story.screenRows[0].contains("more left (←)"))
    story.press(.left, .left, .left)
    #expect(story.model.sideways == 0)
    story.write("x")
    story.press(.left)
    #expect(story.model.sideways == 0 && story.model.editor.cursor == 0, "on a line, ← moves the cursor")
  }

  @Test func tabCompletesTheFirstWordAndListsSeveral() {
    var story = WindowStory(scope: "counter", window: Self.counter, state: 0)
    story.write("a")
    story.press(.tab)
    #expect(story.model.editor.text == "add ")
    story.press(.control("u"))
    story.write("/")
    story.press(.tab)
    #expect(story.model.editor.text == "/")
    #expect(story.screen.contains("/dismiss  /open"), "no /join: the app has no channels")
    story.write("o")
    story.press(.tab)
    #expect(story.model.editor.text == "/open ")
  }

  @Test func upRecallsTheLinesTypedBeforeAndCtrlRSearchesThem() {
    var story = WindowStory(scope: "counter", window: Self.counter, state: 0, history: ["add 5", "inc"])
    story.press(.up)
    #expect(story.model.editor.text == "inc")
    story.press(.up)
    #expect(story.model.editor.text == "add 5")
    story.press(.down, .down)
    #expect(story.model.editor.text == "")
    story.press(.control("r"))
    story.write("add")
    #expect(story.screenRows.last?.hasPrefix("(search `add`) add 5") == true)
    // While searching, Home is the editor's, not the scroll's.
    story.press(.home)
    #expect(story.model.editor.search == nil)
    story.press(.enter)
    #expect(story.lastCommand == .send(line: "add 5", action: ["add": ["amount": 5]]))
  }

  @Test func openAndJoinAskTheShellForAnotherScopeAndTheWindowThenShowsIt() {
    var story = WindowStory(
      scope: "notes", window: Self.notes, state: Self.notes(2), columns: 80, scopes: ["notes", "note:ID", "chat:NAME"])
    story.type("/open")
    #expect(story.screen.contains("✗ /open takes a scope, one of notes, note:ID, chat:NAME"))
    story.type("/join")
    #expect(story.screen.contains("✗ /join takes a channel"))
    story.type("/join general")
    #expect(story.lastCommand == .open(scope: "chat:general"))
    story.type("/open note:1")
    #expect(story.lastCommand == .open(scope: "note:1"))
    story.commands += story.model.handle(.opened(scope: "note:1", window: Self.note, history: ["edit oat milk"]), at: story.now)
    story.daemon(state: ["id": 1, "text": "oat milk", "done": false], seq: 3)
    #expect(story.screenRows[0].hasPrefix(" note:1"))
    #expect(story.screen.contains("opened note:1"))
    #expect(story.screen.contains("1. oat milk"))
    story.press(.up)
    #expect(story.model.editor.text == "edit oat milk", "the scope's own history")
    story.commands += story.model.handle(.openRefused(scope: "chat:random", reason: "there is no channel random"), at: story.now)
    #expect(story.screen.contains("✗ there is no channel random; /channel random opens it"))
  }

  @Test func helpAndOpenNameTheAppsOwnScopesAndJoinIsOnlyForAnAppWithChannels() {
    var story = WindowStory(scope: "counter", window: Self.counter, state: 0, columns: 90, rows: 30)
    story.type("help")
    #expect(story.screen.contains("/open SCOPE — show another scope here (counter, notes, note:ID, presence)"))
    #expect(!story.screen.contains("/join"))
    story.press(.escape)
    story.type("/join general")
    #expect(story.lastCommand != .open(scope: "chat:general"))
    #expect(story.screen.contains(#"✗ no command "/join""#), "the line is the scope's")
  }

  @Test func aResizeDrawsTheWindowAtItsNewSize() {
    var story = WindowStory(scope: "counter", window: Self.counter, state: 0, columns: 80)
    #expect(story.screen.contains("help · q to quit"))
    story.columns = 30
    story.press(.resize)
    let rows = story.screenRows
    #expect(rows.allSatisfy { DisplayWidth.of($0) <= 30 })
    #expect(!story.screen.contains("q to quit"), "the keys' reminder gives way to what matters more")
  }
}

extension WindowModel.Mode {
  var isHelp: Bool { if case .help = self { true } else { false } }
}
