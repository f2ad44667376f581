import ConcordWire
import DaemonDriving
import Foundation
import Testing
import Workspace

/// A Workspace window as a person uses it, in a real terminal (tmux): what only the terminal's
/// shell can show. A 1,000-card board scrolls and keeps up, wide characters keep the columns
/// straight at any size and after a resize, the command line edits and remembers across
/// windows, `/open` switches the session, `NO_COLOR` takes the colours away, and `TERM=dumb`
/// gets a plain line mode. (What the window decides — every key and mode — is the window
/// model's, tested without a terminal in ConcordWindowTests.)
@Suite(.serialized) struct TerminalWindowTests {
  /// A Workspace daemon with `titles` as cards in `todo`, added by one scripted window.
  static func board(with titles: [String]) throws -> DaemonUnderTest {
    let daemon = try DaemonUnderTest(app: "workspace").start()
    let lines = titles.map { #"{"addCard":{"title":"\#($0)","column":"todo"}}"# }.joined(separator: "\n") + "\n"
    let added = try ConcordCLI.run(["attach", "board", "--json"], home: daemon.home, input: lines, app: "workspace")
    #expect(added.status == 0, "\(added.error)\nthe daemon said: \(daemon.output)")
    return daemon
  }

  static func window(_ daemon: DaemonUnderTest, scope: String = "board", columns: Int = 100, rows: Int = 30, environment: String = "")
    throws -> Tmux
  {
    // `swift test` sets NO_COLOR for what it runs: a window gets it only when a test says so.
    try Tmux(
      command: "env -u NO_COLOR \(environment) CONCORD_APP=workspace CONCORD_HOME=\(daemon.home.path) \(ConcordCLI.binary.path) attach \(scope)",
      columns: columns, rows: rows)
  }

  /// A board of 1,000 cards: the window opens at the top, End reaches the last card, PgUp walks
  /// back a page at a time, and a card moved while scrolled shows where it went.
  @Test func aThousandCardBoardScrollsToItsEndsAndKeepsUpWithChanges() throws {
    let daemon = try Self.board(with: (1...1_000).map { "Task \($0)" })
    defer { daemon.stopAndRemoveHome() }
    let tmux = try Self.window(daemon, rows: 40)
    defer { tmux.kill() }
    try tmux.waitForScreen(containing: "#1 Task 1 ", "todo (1000)", "more below (PgDn)", timeout: 20)
    try tmux.press("End")
    try tmux.waitForScreen(containing: "#1000 Task 1000", "more above (PgUp)")
    try tmux.press("PPage")
    try tmux.waitForScreen(without: "#1000 Task 1000")
    try tmux.waitForScreen(containing: "↑↓ PgUp/PgDn")
    // Moved from the bottom of todo to doing: the top of the board says so at once.
    try tmux.type("move 1000 doing")
    try tmux.waitForScreen(containing: "✓ moved #1000 Task 1000 to doing")
    try tmux.press("Home")
    try tmux.waitForScreen(containing: "todo (999)", "doing (1/3)", "#1000 Task 1000")
  }

  /// The cells a character of the screen takes, from Unicode's properties: marks, joiners and
  /// variation selectors none, emoji presentation and CJK two, a regional indicator (half a
  /// flag) one, the rest one.
  static func cells(_ character: Character) -> Int {
    character.unicodeScalars.reduce(0) { total, scalar in
      let value = scalar.value
      if (0x1F1E6...0x1F1FF).contains(value) { return total + 1 }
      switch scalar.properties.generalCategory {
      case .nonspacingMark, .enclosingMark, .format: return total
      default: break
      }
      let cjk = (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value) || (0xAC00...0xD7A3).contains(value)
        || (0xF900...0xFAFF).contains(value) || (0xFF00...0xFF60).contains(value) || (0x20000...0x3FFFD).contains(value)
      return total + (scalar.properties.isEmojiPresentation || cjk ? 2 : 1)
    }
  }

  /// The cell where each `│` of `line` stands.
  static func separatorCells(_ line: Substring) -> [Int] {
    var cell = 0
    var found: [Int] = []
    for character in line {
      if character == "│" { found.append(cell) }
      cell += cells(character)
    }
    return found
  }

  @Test(arguments: [(60, 20), (200, 60)])
  func wideCharactersKeepTheColumnsStraight(columns: Int, rows: Int) throws {
    let titles = [
      "日本語 漢字", "Café crème", "e\u{301}te\u{301}", "Party 🎉😀 time", "Dev 👩\u{200D}💻 work", "Trip 🇯🇵", "Thumb 👍🏽 up",
      "Love ❤\u{FE0F} it", "ＷＷ 漢字 long title that runs on",
    ]
    let daemon = try Self.board(with: titles)
    defer { daemon.stopAndRemoveHome() }
    let tmux = try Self.window(daemon, columns: columns, rows: rows)
    defer { tmux.kill() }
    try tmux.waitForScreen(containing: "#9 ", "connected")
    let lines = tmux.screen(of: "w").split(separator: "\n").filter { $0.contains("│") }
    #expect(lines.count >= 8, "\(lines)")
    let expected = Self.separatorCells(lines[0])
    #expect(expected.count == 2)
    for line in lines {
      #expect(Self.separatorCells(line) == expected, "\(line)")
    }
    // Resized, it draws again at the new width, still straight.
    try tmux.run(["resize-window", "-t", "w", "-x", "\(columns == 60 ? 90 : 70)", "-y", "\(rows)"], capture: false)
    usleep(500_000)
    let resized = tmux.screen(of: "w").split(separator: "\n").filter { $0.contains("│") }
    let after = Self.separatorCells(resized[0])
    #expect(after != expected, "the separators moved with the width")
    for line in resized {
      #expect(Self.separatorCells(line) == after, "\(line)")
    }
  }

  @Test func theCommandLineEditsLikeAShellAndRemembersAcrossWindows() throws {
    let daemon = try Self.board(with: ["First", "Second"])
    defer { daemon.stopAndRemoveHome() }
    var tmux = try Self.window(daemon)
    try tmux.waitForScreen(containing: "#2 Second", "connected")
    // A word typed wrong, fixed by moving the cursor: ← ← ← then Backspace and the right letter.
    try tmux.write("move 1 dxing")
    try tmux.press("Left", "Left", "Left", "BSpace")
    try tmux.write("o")
    try tmux.waitForScreen(containing: "> move 1 doing")
    try tmux.press("Enter")
    // The outcome in the board's words.
    try tmux.waitForScreen(containing: "✓ moved #1 First to doing")
    // Tab completes a command's word; several candidates are listed.
    try tmux.write("ass")
    try tmux.press("Tab")
    try tmux.waitForScreen(containing: "> assign")
    try tmux.press("C-u")
    try tmux.write("a")
    try tmux.press("Tab")
    try tmux.waitForScreen(containing: "add  archive  assign")
    try tmux.press("C-u")
    // After the command's word, Tab offers what the board holds: cards with their titles, then
    // the columns, then the people.
    try tmux.write("move ")
    try tmux.press("Tab")
    try tmux.waitForScreen(containing: "1 First  2 Second")
    try tmux.write("2 to don")
    try tmux.press("Tab")
    try tmux.waitForScreen(containing: "> move 2 to done")
    try tmux.press("Enter")
    try tmux.waitForScreen(containing: "✓ moved #2 Second to done")
    try tmux.write("assign 2 @")
    try tmux.press("Tab")
    try tmux.waitForScreen(containing: "> assign 2 @\(NSUserName())")
    try tmux.press("C-u")
    // Ctrl-A then Ctrl-K clears; Ctrl-W takes the last word.
    try tmux.write("label 2 urgent")
    try tmux.press("C-w")
    try tmux.waitForScreen(without: "urgent")
    try tmux.waitForScreen(containing: "> label 2")
    try tmux.press("C-a", "C-k")
    try tmux.write("q")
    try tmux.press("Enter")
    try tmux.waitUntilExited()
    tmux.kill()

    // A new window of the same scope recalls what was typed: ↑, and Ctrl-R to search.
    tmux = try Self.window(daemon)
    defer { tmux.kill() }
    try tmux.waitForScreen(containing: "connected")
    try tmux.press("Up")
    try tmux.waitForScreen(containing: "> q")
    try tmux.press("Up")
    try tmux.waitForScreen(containing: "> move 2 to done")
    try tmux.press("Up")
    try tmux.waitForScreen(containing: "> move 1 doing")
    try tmux.press("C-u", "C-r")
    try tmux.write("mov")
    try tmux.waitForScreen(containing: "(search `mov`) move 2 to done")
  }

  /// One window moves between scopes, and in a chat a plain line is always said.
  @Test func aWindowOpensAnotherScopeAndAChatLineIsSaidWhateverItsFirstWord() throws {
    let daemon = try Self.board(with: ["Only card"])
    defer { daemon.stopAndRemoveHome() }
    let tmux = try Self.window(daemon)
    defer { tmux.kill() }
    try tmux.waitForScreen(containing: "#1 Only card", "connected")
    // A channel not opened yet is not switched to; the window says how to open it.
    try tmux.type("/join random")
    try tmux.waitForScreen(containing: "/channel random opens it", "#1 Only card")
    try tmux.type("/open")
    try tmux.waitForScreen(containing: "✗ /open takes a scope")
    try tmux.type("/open chat:general")
    try tmux.waitForScreen(containing: " chat:general", "opened chat:general")
    // The window left the board: the daemon's presence says so at once, not when a ping fails.
    let deadline = Date().addingTimeInterval(5)
    var scopes: [String] = []
    repeat {
      let presence = try JSONValue(parsing: try ConcordCLI.run(["state", "presence"], home: daemon.home, app: "workspace").output)
      scopes = try presence.decode(Presence.self).windows.flatMap(\.scopes)
    } while scopes != ["chat:general"] && Date() < deadline
    #expect(scopes == ["chat:general"])
    try tmux.type("channel is noisy today")
    try tmux.waitForScreen(containing: "channel is noisy today", "✓ channel is noisy today")
    try tmux.type("q is a letter")
    try tmux.waitForScreen(containing: "✓ q is a letter")
    try tmux.type("/open board")
    try tmux.waitForScreen(containing: "#1 Only card", "opened board")
    let chat = try ConcordCLI.run(["state", "chat:general"], home: daemon.home, app: "workspace").output
    #expect(chat.contains("channel is noisy today") && !chat.contains(#""is""#), "\(chat)")
  }

  @Test func noColorTakesTheColoursAwayAndKeepsTheLayout() throws {
    let daemon = try Self.board(with: ["Colourful"])
    defer { daemon.stopAndRemoveHome() }
    let colour = try Self.window(daemon)
    try colour.waitForScreen(containing: "#1 Colourful", "connected")
    let coloured = colour.styledScreen()
    colour.kill()
    let plain = try Self.window(daemon, environment: "NO_COLOR=1")
    defer { plain.kill() }
    try plain.waitForScreen(containing: "#1 Colourful", "connected")
    let uncoloured = plain.styledScreen()
    let colourCode = /\x1B\[[0-9;]*3[0-7]m|\x1B\[[0-9;]*38;/
    #expect(coloured.contains(colourCode), "the card number is coloured: \(coloured.debugDescription.prefix(600))")
    #expect(!uncoloured.contains(colourCode), "\(uncoloured.debugDescription.prefix(600))")
    #expect(plain.screen(of: "w").contains("#1 Colourful"))
  }

  @Test func aDumbTerminalGetsALineModeThatPrintsTheStateAndTakesCommands() throws {
    let daemon = try Self.board(with: ["Plain"])
    defer { daemon.stopAndRemoveHome() }
    let tmux = try Self.window(daemon, environment: "TERM=dumb")
    defer { tmux.kill() }
    try tmux.waitForScreen(containing: "#1 Plain", "type `help`")
    // Drawn as wide as the terminal (100 columns), not a fixed 80.
    let header = try #require(tmux.screen(of: "w").split(separator: "\n").first { $0.contains("done (") })
    #expect(header.distance(from: header.startIndex, to: header.range(of: "done (")!.lowerBound) > 60, "\(header)")
    try tmux.type(#"add "Typed in line mode""#)
    try tmux.waitForScreen(containing: #"ok: add "Typed in line mode""#, "#2 Typed in line mode")
    try tmux.type("move 9 done")
    try tmux.waitForScreen(containing: "refused: move 9 done:")
    #expect(!tmux.styledScreen().contains("\u{1B}[3"), "no colour in line mode")
    try tmux.type("q")
    try tmux.waitUntilExited()
  }
}
