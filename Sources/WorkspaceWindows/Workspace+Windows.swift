import Workspace
import ConcordApp
import ConcordJSON
import Foundation

extension Workspace {
  /// How `concord attach` shows Workspace's scopes and reads what people type in them.
  ///
  /// ```
  /// concord attach board        add "Fix login" to doing · move 3 done · assign 3 alice · undo
  /// concord attach card:3       due tomorrow 17:00 · label bug · describe Users cannot log in
  /// concord attach chat:general hello @bob see #3
  /// ```
  public static var client: ClientApp {
    let palette = Palette.current
    return ClientApp(
      hosting: hosted(),
      scopes: [
        .scope(
          "board", render: { (view: BoardView, context) in BoardRendering.lines(view, context, palette: palette) },
          commands: BoardCommands.all, outcome: Outcomes.board, choices: Choices.board, header: BoardRendering.header),
        .scope(
          "column",
          render: { (view: ColumnView, context) in
            let pending = context.pending(view.cards, in: \.cards)
            let header = context.confirmed.map { $0.name != view.name || $0.limit != view.limit } ?? false
            return BoardRendering.column(
              of: view, width: max(10, context.width - 2), palette: palette, now: Date(), pending: pending, headerPending: header
            ).map { " " + $0.styled }
          },
          commands: ColumnCommands.all, outcome: Outcomes.column),
        .scope(
          "card", render: { (view: CardView, context) in CardRendering.lines(view, context, palette: palette) },
          commands: CardCommands.all, outcome: Outcomes.card, choices: Choices.card),
        .scope(
          "chat", render: { (view: ChannelView, context) in ChatRendering.lines(view, context, palette: palette) },
          commands: ChannelCommands.all, otherwise: ChannelCommands.say, otherwiseHelp: "is said in the channel, as it is typed",
          showsEnd: true, outcome: Outcomes.channel,
          choices: Choices.channel),
        .scope(
          "presence",
          render: { (presence: Presence, context) in FeedRendering.presence(presence, width: context.width, palette: palette) },
          commands: [WindowCommand<Never>]()),
        .scope(
          "activity",
          render: { (view: ActivityView, context) in FeedRendering.activity(view, width: context.width, palette: palette) },
          commands: [WindowCommand<Never>]()),
      ])
  }
}

extension CommandWords {
  /// The card number at `index`, written `42` or `#42`.
  func card(_ index: Int) throws -> Int {
    let text = try word(index, "the card's number")
    guard let number = Card.number(text) else {
      throw CommandError("a card is named by its number, such as 42 or #42, not \"\(text)\"")
    }
    return number
  }

  /// An optional position (1 is the top) at `index`.
  func position(_ index: Int) throws -> Int? {
    index < all.count ? try integer(index, "the position") : nil
  }

  /// A limit at `index`: a number, or `none`.
  func limit(_ index: Int) throws -> Int? {
    let text = try word(index, "the limit")
    if ["none", "no", "off"].contains(text.lowercased()) { return nil }
    return try integer(index, "the limit (a number, or none)")
  }

  func dueDate(from index: Int) throws -> Date? {
    try DueDateWords.parse(Array(all.dropFirst(index)))
  }

  /// A card title: the words from `index`, up to a trailing `to COLUMN` when `column` asks.
  func titleAndColumn(from index: Int) throws -> (title: String, column: String?) {
    var words = Array(all.dropFirst(index))
    var column: String?
    if words.count >= 3, words[words.count - 2].lowercased() == "to" {
      column = words.removeLast()
      words.removeLast()
    }
    guard !words.isEmpty else { throw CommandError("the card's title is missing") }
    return (words.joined(separator: " "), column)
  }
}

/// The words of the `board` window.
enum BoardCommands {
  static let all: [WindowCommand<BoardAction>] = [
    WindowCommand("add", usage: "add \"TITLE\" [to COLUMN]", help: "add a card (to the first column unless named)", example: "add \"Fix login\" to doing") { words in
      let (title, column) = try words.titleAndColumn(from: 0)
      return .addCard(title: title, column: column)
    },
    WindowCommand("move", usage: "move ID [to] COLUMN [POSITION]", help: "move a card; position 1 is the top", example: "move 2 done") { words in
      let words = words.without("to", at: 1)
      return .moveCard(id: try words.card(0), column: try words.word(1, "the column"), position: try words.position(2))
    },
    WindowCommand("assign", usage: "assign ID USER", help: "assign a card to someone who joined", example: "assign 2 bob") { words in
      .assign(id: try words.card(0), user: try words.word(1, "the person"))
    },
    WindowCommand("unassign", usage: "unassign ID", help: "assign a card to nobody", example: "unassign 2") { words in
      .assign(id: try words.card(0), user: nil)
    },
    WindowCommand("due", usage: "due ID WHEN", help: "set the due date: tomorrow 5pm, friday 9am, dec 3, in 2h, none", example: "due 2 tomorrow 5pm") { words in
      .setDue(id: try words.card(0), due: try words.dueDate(from: 1))
    },
    WindowCommand("label", usage: "label ID LABEL", help: "add a label", example: "label 2 urgent") { words in
      .label(id: try words.card(0), label: try words.word(1, "the label"))
    },
    WindowCommand("unlabel", usage: "unlabel ID LABEL", help: "take a label off", example: "unlabel 2 urgent") { words in
      .unlabel(id: try words.card(0), label: try words.word(1, "the label"))
    },
    WindowCommand("edit", usage: "edit ID TITLE", help: "change a card's title", example: "edit 2 Fix the login page") { words in
      .editCard(id: try words.card(0), title: try words.rest(from: 1, "the new title"), description: nil)
    },
    WindowCommand("describe", usage: "describe ID TEXT", help: "set a card's description", example: "describe 2 Users see a blank page") { words in
      .editCard(id: try words.card(0), title: nil, description: try words.rest(from: 1, "the description"))
    },
    WindowCommand("archive", usage: "archive ID", help: "archive a card", example: "archive 2") { words in .archive(id: try words.card(0)) },
    WindowCommand("restore", usage: "restore ID", help: "bring an archived card back", example: "restore 2") { words in .restore(id: try words.card(0)) },
    WindowCommand("column", usage: "column add|rename|move|remove NAME …", help: "change the columns", example: "column add review 3") { words in
      let name = try words.word(1, "the column's name")
      switch try words.word(0, "add, rename, move or remove").lowercased() {
      case "add": return .addColumn(name: name, limit: words.all.count > 2 ? try words.limit(2) : nil)
      case "rename": return .renameColumn(name: name, to: try words.word(2, "the new name"))
      case "move": return .moveColumn(name: name, position: try words.integer(2, "the position"))
      case "remove": return .removeColumn(name: name)
      case let other: throw CommandError("column \(other)? use column add, rename, move or remove")
      }
    },
    WindowCommand("limit", usage: "limit COLUMN N|none", help: "set a column's work-in-progress limit", example: "limit doing 3") { words in
      .limitColumn(name: try words.word(0, "the column"), limit: try words.limit(1))
    },
    WindowCommand("invite", usage: "invite USER", help: "let someone be assigned before they join", example: "invite carol") { words in
      .invite(user: try words.word(0, "the person"))
    },
    WindowCommand("dismiss", usage: "dismiss ID", help: "put away a card's raised reminder (its due date stays)", example: "dismiss 2") { words in
      .dismissReminder(id: try words.card(0))
    },
    WindowCommand("undo", help: "take back your last change", example: "undo") { _ in .undo },
    WindowCommand("redo", help: "put back the change you undid", example: "redo") { _ in .redo },
  ]
}

/// The words of a `column:NAME` window.
enum ColumnCommands {
  static let all: [WindowCommand<ColumnAction>] = [
    WindowCommand("add", usage: "add \"TITLE\"", help: "add a card to this column", example: "add \"Write the release notes\"") { words in
      .addCard(title: try words.rest(from: 0, "the card's title"))
    },
    WindowCommand("move", usage: "move ID [POSITION]", help: "move a card here; position 1 is the top", example: "move 2 1") { words in
      .moveCard(id: try words.card(0), position: try words.position(1))
    },
    WindowCommand("limit", usage: "limit N|none", help: "set this column's work-in-progress limit", example: "limit 3") { words in
      .limit(to: try words.limit(0))
    },
    WindowCommand("rename", usage: "rename NAME", help: "rename this column", example: "rename in-review") { words in
      .rename(to: try words.word(0, "the new name"))
    },
  ]
}

/// The words of a `card:ID` window.
enum CardCommands {
  static let all: [WindowCommand<CardAction>] = [
    WindowCommand("title", usage: "title TEXT", help: "change the title", example: "title Fix the login page") { words in
      .edit(title: try words.rest(from: 0, "the new title"), description: nil)
    },
    WindowCommand("describe", usage: "describe TEXT", help: "set the description", example: "describe Users see a blank page") { words in
      .edit(title: nil, description: try words.rest(from: 0, "the description"))
    },
    WindowCommand("move", usage: "move [to] COLUMN [POSITION]", help: "move the card", example: "move done") { words in
      let words = words.without("to", at: 0)
      return .move(column: try words.word(0, "the column"), position: try words.position(1))
    },
    WindowCommand("assign", usage: "assign USER", help: "assign the card", example: "assign bob") { words in .assign(user: try words.word(0, "the person")) },
    WindowCommand("unassign", help: "assign the card to nobody", example: "unassign") { _ in .assign(user: nil) },
    WindowCommand("label", usage: "label LABEL", help: "add a label", example: "label urgent") { words in .label(name: try words.word(0, "the label")) },
    WindowCommand("unlabel", usage: "unlabel LABEL", help: "take a label off", example: "unlabel urgent") { words in .unlabel(name: try words.word(0, "the label")) },
    WindowCommand("due", usage: "due WHEN", help: "tomorrow 5pm, friday 9am, dec 3, in 2h, 2026-12-01 09:30, none", example: "due tomorrow 5pm") { words in
      .setDue(due: try words.dueDate(from: 0))
    },
    WindowCommand("archive", help: "archive the card", example: "archive") { _ in .archive },
    WindowCommand("restore", help: "bring the card back", example: "restore") { _ in .restore },
    WindowCommand("dismiss", help: "put away the card's raised reminder (its due date stays)", example: "dismiss") { _ in
      .dismissReminder
    },
  ]
}

/// The words of a `chat:NAME` window, as in IRC and Slack: a plain line is always said; commands
/// take a `/` (`/edit 3 TEXT`), and `//` says a line that starts with `/`.
enum ChannelCommands {
  static let all: [WindowCommand<ChannelAction>] = [
    WindowCommand("/edit", usage: "/edit N TEXT", help: "change your message N", example: "/edit 3 the build is green again") { words in
      .edit(message: try words.integer(0, "the message's number"), text: try words.rest(from: 1, "the new text"))
    },
    WindowCommand(
      "/delete", usage: "/delete N", help: "delete your message N (asks first: it cannot be undone)", example: "/delete 3",
      confirm: { words in "delete message \(words.all.first ?? "") for good" }
    ) { words in
      .delete(message: try words.integer(0, "the message's number"))
    },
    WindowCommand("/channel", usage: "/channel NAME", help: "open a new channel (then: /join NAME)", example: "/channel random") { words in
      .createChannel(name: try words.word(0, "the channel's name"))
    },
  ]

  /// A line that is no command: said as typed (`//x` says `/x`).
  static func say(_ line: String) throws -> ChannelAction {
    let text = line.hasPrefix("//") ? String(line.dropFirst()) : line
    guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw CommandError("what to say is missing") }
    return .say(text: text)
  }
}

// A window decodes its scope's state after every change; a change leaves most cards, columns
// and messages as they were, and these are taken from the last decode (`DecodeMemo`).
extension Card: MemoizedDecodable {}
extension ColumnView: MemoizedDecodable {}
extension Message: MemoizedDecodable {}
