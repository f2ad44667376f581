import ConcordApp
import ConcordClient
import ConcordWire
import Foundation
import Testing

@testable import Workspace
@testable import WorkspaceWindows

/// What people type in Workspace's windows, and what the windows show.
@Suite struct WindowTests {
  @Test func theBoardUnderstandsTheWordsOfTheReadme() throws {
    #expect(try decoded("board", #"add "Fix login" to doing"#, as: BoardAction.self) == .addCard(title: "Fix login", column: "doing"))
    #expect(try decoded("board", "add Fix the user's login", as: BoardAction.self) == .addCard(title: "Fix the user's login", column: nil))
    #expect(try decoded("board", "move 42 done", as: BoardAction.self) == .moveCard(id: 42, column: "done", position: nil))
    #expect(try decoded("board", "move #42 doing 1", as: BoardAction.self) == .moveCard(id: 42, column: "doing", position: 1))
    #expect(try decoded("board", "assign 42 alice", as: BoardAction.self) == .assign(id: 42, user: "alice"))
    #expect(try decoded("board", "limit doing none", as: BoardAction.self) == .limitColumn(name: "doing", limit: nil))
    #expect(try decoded("board", "column add review 2", as: BoardAction.self) == .addColumn(name: "review", limit: 2))
    #expect(try decoded("board", "undo", as: BoardAction.self) == .undo)
    guard case let .setDue(42, due?) = try decoded("board", "due 42 in 3 days", as: BoardAction.self) else {
      Issue.record("due did not parse")
      return
    }
    // The window turns words into an instant when they are typed: three calendar days on, which
    // is 71 or 73 hours across a change of daylight saving time.
    let threeDaysOn = try #require(Calendar.current.date(byAdding: .day, value: 3, to: Date()))
    #expect(abs(due.timeIntervalSince(threeDaysOn)) < 60)
  }

  @Test func aMistypedWordIsAnsweredWithTheWordMeant() throws {
    for (typed, meant) in [("mvoe 2 done", "move"), ("asign 2 bob", "assign"), ("lable 2 bug", "label"), ("undoo", "undo")] {
      let error = try #require(throws: CommandError.self) { try action("board", typed) }
      #expect(error.description.contains("did you mean `\(meant)`?"), "\(typed): \(error)")
    }
    let farOff = try #require(throws: CommandError.self) { try action("board", "teleport 2") }
    #expect(!farOff.description.contains("did you mean"))
  }

  @Test func movesReadAsSentencesToo() throws {
    #expect(try decoded("board", "move 2 to done", as: BoardAction.self) == .moveCard(id: 2, column: "done", position: nil))
    #expect(try decoded("board", "move 2 TO doing 1", as: BoardAction.self) == .moveCard(id: 2, column: "doing", position: 1))
    #expect(try decoded("card", "move to done", as: CardAction.self) == .move(column: "done", position: nil))
    // A column that is called "to" is still reachable: `move 2 to to`.
    #expect(try decoded("board", "move 2 to to", as: BoardAction.self) == .moveCard(id: 2, column: "to", position: nil))
  }

  @Test func mistakesInWordsSayWhatWasExpected() throws {
    let notANumber = try #require(throws: CommandError.self) { try action("board", "move fortytwo done") }
    #expect(
      notANumber.description
        == "a card is named by its number, such as 42 or #42, not \"fortytwo\" (usage: move ID [to] COLUMN [POSITION])")
    let unknown = try #require(throws: CommandError.self) { try action("board", "fly 3") }
    #expect(unknown.description == "no command \"fly\" (`help` lists them)")
    let notADate = try #require(throws: CommandError.self) { try action("card", "due someday") }
    #expect(notADate.description.hasPrefix("\"someday\" is not a date I can read"))
  }

  @Test func aChatLineIsSaidAsTyped() throws {
    #expect(try decoded("chat", "hello @bob see #42, it's broken", as: ChannelAction.self) == .say(text: "hello @bob see #42, it's broken"))
    #expect(try decoded("chat", "don't \"quote\" me", as: ChannelAction.self) == .say(text: "don't \"quote\" me"))
    #expect(try decoded("chat", "keep  the   spacing", as: ChannelAction.self) == .say(text: "keep  the   spacing"))
    #expect(try decoded("chat", "/delete 3", as: ChannelAction.self) == .delete(message: 3))
    #expect(try decoded("chat", "/edit 3 fixed it", as: ChannelAction.self) == .edit(message: 3, text: "fixed it"))
    #expect(try decoded("card", "label bug", as: CardAction.self) == .label(name: "bug"))
    #expect(try decoded("column", "add Write docs", as: ColumnAction.self) == .addCard(title: "Write docs"))
  }

  /// A plain line is always said, whatever word it starts with: commands take a `/`.
  @Test func aChatIsAConversationWhereCommandsTakeASlash() throws {
    for line in ["channel is noisy today", "delete that branch", "edit 3 lines", "say it again", "help me"] {
      #expect(try decoded("chat", line, as: ChannelAction.self) == .say(text: line), "\(line)")
    }
    #expect(try decoded("chat", "/channel random", as: ChannelAction.self) == .createChannel(name: "random"))
    #expect(try decoded("chat", "//shrug", as: ChannelAction.self) == .say(text: "/shrug"))
    let typo = try #require(throws: CommandError.self) { try action("chat", "/delte 3") }
    #expect(typo.description.contains("did you mean `/delete`?"), "\(typo)")
    #expect(throws: CommandError.self) { try action("chat", "/") }
  }

  @Test func dueDatesReadTheWaysPeopleSayThem() throws {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "Europe/Paris")!
    // Saturday 21 November 2026, 10:30 in Paris.
    let now = calendar.date(from: DateComponents(year: 2026, month: 11, day: 21, hour: 10, minute: 30))!
    func parse(_ text: String) throws -> DateComponents? {
      try DueDateWords.parse(text.split(separator: " ").map(String.init), now: now, calendar: calendar)
        .map { calendar.dateComponents([.month, .day, .hour, .minute], from: $0) }
    }
    #expect(try parse("tomorrow 17:00") == DateComponents(month: 11, day: 22, hour: 17, minute: 0))
    #expect(try parse("today") == DateComponents(month: 11, day: 21, hour: 17, minute: 0))
    #expect(try parse("9:15") == DateComponents(month: 11, day: 22, hour: 9, minute: 15))
    #expect(try parse("11:00") == DateComponents(month: 11, day: 21, hour: 11, minute: 0))
    #expect(try parse("monday 09:30") == DateComponents(month: 11, day: 23, hour: 9, minute: 30))
    #expect(try parse("saturday") == DateComponents(month: 11, day: 28, hour: 17, minute: 0))
    #expect(try parse("in 2 hours") == DateComponents(month: 11, day: 21, hour: 12, minute: 30))
    #expect(try parse("2026-12-01 08:00") == DateComponents(month: 12, day: 1, hour: 8, minute: 0))
    #expect(try parse("none") == nil)
    #expect(throws: CommandError.self) { try parse("2026-02-30") }
    // A month past December, or month 0, is a mistake, not next year's January.
    #expect(throws: CommandError.self) { try parse("2026-13-01") }
    #expect(throws: CommandError.self) { try parse("2026-00-15") }
    #expect(throws: CommandError.self) { try parse("tomorrow 25:00") }
    #expect(throws: CommandError.self) { try parse("in many days") }
  }

  /// The other ways people say a due date, on Saturday 21 November 2026 at 10:30.
  @Test func dueDatesReadAsPeopleSayThemInConversation() throws {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "Europe/Paris")!
    let now = calendar.date(from: DateComponents(year: 2026, month: 11, day: 21, hour: 10, minute: 30))!
    func parse(_ text: String) throws -> DateComponents? {
      try DueDateWords.parse(text.split(separator: " ").map(String.init), now: now, calendar: calendar)
        .map { calendar.dateComponents([.year, .month, .day, .hour, .minute], from: $0) }
    }
    func on(_ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0, year: Int = 2026) -> DateComponents {
      DateComponents(year: year, month: month, day: day, hour: hour, minute: minute)
    }
    let said: [(String, DateComponents)] = [
      ("next monday", on(11, 23, 17)), ("dec 3", on(12, 3, 17)), ("3 dec", on(12, 3, 17)), ("December 3", on(12, 3, 17)),
      ("3pm", on(11, 21, 15)), ("9am", on(11, 22, 9)), ("tomorrow 5pm", on(11, 22, 17)), ("friday 9am", on(11, 27, 9)),
      ("fri 9:30am", on(11, 27, 9, 30)), ("noon", on(11, 21, 12)), ("tonight", on(11, 21, 20)), ("eod", on(11, 21, 17)),
      ("next week", on(11, 23, 17)), ("in 2h", on(11, 21, 12, 30)), ("in 30m", on(11, 21, 11)),
      ("17:00 tomorrow", on(11, 22, 17)), ("tomorrow at 12am", on(11, 22, 0)), ("nov 20", on(11, 20, 17, year: 2027)),
      ("dec 3 10:00", on(12, 3, 10)),
    ]
    for (text, expected) in said {
      #expect(try parse(text) == expected, "\(text)")
    }
    // A date that has passed is read back, not taken.
    let passed = try #require(throws: CommandError.self) { try parse("2026-11-01") }
    #expect(passed.description.hasPrefix("2026-11-01 is Sun 1 Nov 2026 17:00, which has passed"), "\(passed)")
    #expect(throws: CommandError.self) { try parse("today 9:00") }
    // What was not understood is named, with examples.
    let unknown = try #require(throws: CommandError.self) { try parse("friday 13pm") }
    #expect(unknown.description.hasPrefix("\"friday 13pm\" is not a date I can read; try tomorrow 5pm"), "\(unknown)")
    #expect(throws: CommandError.self) { try parse("feb 30") }
  }

  @Test func theBoardShowsItsColumnsSideBySide() throws {
    let board = Board.with(people: ["alice", "bob"])
      .applying(.addCard(title: "Fix login", column: nil))
      .applying(.assign(id: 1, user: "bob"))
      .applying(.addCard(title: "Ship it", column: "done"))
    let state = Workspace.State(board: board)
    let lines = BoardRendering.lines(BoardView(state), RenderContext(width: 90), palette: .plain)
    let header = try #require(lines.first { $0.contains("todo") })
    #expect(header.contains("todo (1)") && header.contains("doing (0/3)") && header.contains("done (1)"))
    #expect(header.range(of: "todo")!.lowerBound < header.range(of: "doing")!.lowerBound)
    let cards = try #require(lines.first { $0.contains("#1 Fix login") })
    #expect(cards.contains("#2 Ship it"))
    #expect(lines.contains { $0.contains("@bob") })
    #expect(lines.allSatisfy { $0.count <= 90 })
    #expect(lines.last?.contains("people: alice, bob") == true)
    // Whose the last change is, said to the person it concerns.
    let editedBy = board.applying(.label(id: 1, label: "bug"), by: "alice")
    let seenBy = { (user: String) in
      BoardRendering.lines(BoardView(Workspace.State(board: editedBy)), RenderContext(width: 120, user: user), palette: .plain).last ?? ""
    }
    #expect(seenBy("alice").contains("the last change is yours (`undo` takes it back)"), "\(seenBy("alice"))")
    #expect(seenBy("bob").contains("last change by alice (they can `undo` it)"), "\(seenBy("bob"))")
    // With colour, the same text, styled.
    let coloured = BoardRendering.lines(BoardView(state), RenderContext(width: 90), palette: Palette(enabled: true))
    #expect(coloured.joined().contains("\u{1B}["))
  }

  /// A card in the last column is done: said once where the column is called done, and in
  /// words where it is called something else.
  @Test func aDoneCardSaysSoOnce() throws {
    let board = Board.with(people: ["alice"]).applying(.addCard(title: "Ship it", column: "done"))
    let state = Workspace.State(board: board)
    let lines = CardRendering.lines(CardView(state.board.present.cards[id: 1]!, in: state), width: 60, palette: .plain)
    #expect(lines.contains(" in done"), "\(lines)")
    #expect(!lines.joined().contains("done, done"))
    let renamed = Board.with(people: ["alice"]).applying(.renameColumn(name: "done", to: "shipped"))
      .applying(.addCard(title: "Ship it", column: "shipped"))
    let shippedState = Workspace.State(board: renamed)
    let shipped = CardRendering.lines(CardView(shippedState.board.present.cards[id: 1]!, in: shippedState), width: 60, palette: .plain)
    #expect(shipped.contains(" in shipped, the last column: done"), "\(shipped)")
  }

  @Test func aLinkedCardShowsItsTitleInChat() throws {
    var state = Workspace.State(board: Board.with(people: ["bob"]).applying(.addCard(title: "Fix login", column: nil), by: "bob"))
    state.chat.channels[id: "general"]?.messages.append(Message(id: 1, author: "carol", at: monday, text: "@bob see #1 and #9"))
    let view = ChannelView(state.chat.channels[id: "general"]!, in: state)
    let lines = ChatRendering.lines(view, RenderContext(width: 80), palette: .plain, now: monday)
    #expect(lines.contains { $0.contains("carol: @bob see #1 «Fix login» and #9 «no such card»") })
  }

  @Test func chatShowsAsLinksWhatTheMessageLinksToAndNothingElse() throws {
    var state = Workspace.State(board: Board.with(people: ["bob"]).applying(.addCard(title: "Fix login", column: nil), by: "bob"))
    let text = "(#1) is not #1abc"
    state.chat.channels[id: "general"]?.messages.append(Message(id: 1, author: "carol", at: monday, text: text))
    #expect(Message.references(in: text).cards == [1])
    // A chat link names a card the way a window does: a number above 0 that fits an Int.
    #expect(Message.references(in: "#9223372036854775808 #0 #-2").cards == [])
    let view = ChannelView(state.chat.channels[id: "general"]!, in: state)
    let lines = ChatRendering.lines(view, RenderContext(width: 80), palette: .plain, now: monday)
    #expect(lines.contains { $0.contains("carol: (#1) «Fix login» is not #1abc") }, "\(lines)")
  }

  /// A mention of the window's own person stands out from the others (reverse yellow), with the
  /// punctuation after it left as it was; a message still pending is dimmed and marked.
  @Test func aMentionOfYouStandsOutAndAPendingMessageIsMarked() throws {
    var state = Workspace.State(board: Board.with(people: ["bob", "alice"]))
    state.chat.channels[id: "general"]?.messages.append(Message(id: 1, author: "carol", at: monday, text: "@bob, ask @alice"))
    let view = ChannelView(state.chat.channels[id: "general"]!, in: state)
    let palette = Palette(enabled: true)
    let lines = ChatRendering.lines(view, RenderContext(width: 80, user: "bob"), palette: palette, now: monday)
    let line = try #require(lines.first { $0.contains("ask") })
    #expect(line.contains(palette.mention("@bob") + ","))
    #expect(line.contains(palette.magenta("@alice")))
    #expect(!line.contains(palette.mention("@alice")))

    var pending = view
    pending.messages.append(Message(id: 2, author: "bob", at: monday, text: "on it, see #5"))
    let shown = ChatRendering.lines(pending, RenderContext(width: 80, confirmed: view, user: "bob"), palette: .plain, now: monday)
    #expect(shown.contains { $0.hasPrefix(RenderContext<ChannelView>.pendingMark) && $0.contains("bob: on it, see #5") }, "\(shown)")
    // The channel has not linked #5 yet: its title comes with the daemon's answer; until then
    // the card is not called missing.
    #expect(!shown.joined().contains("no such card"), "\(shown)")
    #expect(shown.contains { $0.hasPrefix(" ") && $0.contains("carol: @bob, ask @alice") })
  }
}

/// Tab, after a command's first word, offers what the window shows.
@Suite struct ChoicesTests {
  static func choices(_ scope: String, _ state: JSONValue, _ line: String) throws -> [WordChoice] {
    let window = try #require(Workspace.client.scope(named: scope))
    var words = line.split(separator: " ").map(String.init)
    let typed = line.hasSuffix(" ") ? "" : words.removeLast()
    return window.choices(state, words, typed)
  }

  @Test func tabOffersCardsWithTheirTitlesColumnsPeopleAndChannels() throws {
    var board = Board.with(people: ["bob", "carol"]).applying(.addCard(title: "Fix login", column: nil), by: "bob")
    board = board.applying(.addCard(title: "Ship it", column: "doing"), by: "bob")
    var state = Workspace.State(board: board)
    let view = try JSONValue(encoding: BoardView(state))
    #expect(try Self.choices("board", view, "move ") == [WordChoice("1", note: "Fix login"), WordChoice("2", note: "Ship it")])
    #expect(try Self.choices("board", view, "label #").map(\.word) == ["#1", "#2"])
    #expect(try Self.choices("board", view, "move 2 to d").map(\.word) == ["todo", "doing", "done"])
    #expect(try Self.choices("board", view, "assign 2 @").map(\.word) == ["@bob", "@carol"])
    #expect(try Self.choices("board", view, "column rename ").map(\.word) == ["todo", "doing", "done"])
    #expect(try Self.choices("board", view, "invite ").isEmpty)

    let card = try JSONValue(encoding: CardView(state.board.present.cards[id: 2]!, in: state))
    #expect(try Self.choices("card", card, "move to ").map(\.word) == ["todo", "doing", "done"])
    #expect(try Self.choices("card", card, "assign ").map(\.word) == ["bob", "carol"])

    state.chat.channels[id: "general"]?.messages.append(Message(id: 1, author: "bob", at: monday, text: "see #2"))
    let chat = try JSONValue(encoding: ChannelView(state.chat.channels[id: "general"]!, in: state))
    #expect(try Self.choices("chat", chat, "thanks @c").map(\.word) == ["@bob", "@carol"])
    #expect(try Self.choices("chat", chat, "about #") == [WordChoice("#2", note: "Ship it")])
    #expect(try Self.choices("chat", chat, "/edit ") == [WordChoice("1", note: "bob: see #2")])
    #expect(try Self.choices("chat", chat, "/join ").map(\.word) == ["general"])
  }
}
