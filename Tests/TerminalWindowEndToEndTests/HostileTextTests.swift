import ConcordJSON
import ConcordLog
import ConcordPlatform
import DaemonDriving
import Foundation
import Testing

/// Nobody's text drives another person's terminal. Hostile titles and messages, made by an
/// independent generator (`hostile_text.py`: escapes that clear the screen, retitle the window,
/// write the clipboard; bells, backspaces, newlines, C1 controls, bidi overrides), are in a
/// Workspace log written before the app refused them; every window that shows them, in a real
/// terminal (tmux), draws them as signs: the window's title is untouched, nothing is cleared or
/// coloured, and every column of the board stays aligned.
@Suite(.serialized) struct HostileTextTests {
  static func hostileTexts(seed: Int, count: Int) throws -> [String] {
    let script = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "hostile_text.py")
    let made = try ConcordCLI.runProgram(URL(filePath: "/usr/bin/env"), ["python3", script.path, String(seed), String(count)])
    try #require(made.status == 0, "\(made.error)")
    return try JSONDecoder().decode([String].self, from: Data(made.output.utf8))
  }

  /// A Workspace log of version 3 (before admission refused control characters) holding each
  /// text as a card's title and as a message in general, as a daemon of then would have logged
  /// them.
  static func writeLog(_ texts: [String], in home: URL) throws {
    let layout = ConcordHome(home)
    let log = try ActionLog.open(at: layout.log, key: .file(layout.key))
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    var records: [LogRecord] = []
    for (index, text) in texts.enumerated() {
      let at = start.addingTimeInterval(Double(index))
      let atText = try JSONDate.text(at)
      func json(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
      }
      let (scope, action): (String, [String: Any]) =
        index % 2 == 0
        ? ("board", ["board": ["action": ["addCard": ["title": text]], "at": atText, "user": "mallory"]])
        : ("chat:general", ["chat": ["action": ["say": ["channel": "general", "text": text]], "at": atText, "user": "mallory"]])
      records.append(
        LogRecord(
          client: "w-mallory", cseq: Int64(index + 1), at: at, user: "mallory", scope: scope, action: try json(action),
          outcome: .applied, app: "workspace", appVersion: 3))
    }
    try log.append(records)
    try log.close()
  }

  /// The terminal cells a character takes, as Unicode's East Asian Width has it for what the
  /// generator writes: two for wide (CJK, emoji), none for a combining mark, else one.
  static func cells(_ scalar: Unicode.Scalar) -> Int {
    switch scalar.value {
    case 0x0300...0x036F: 0
    case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
      0x1F300...0x1F64F, 0x20000...0x3FFFD:
      2
    default: 1
    }
  }

  /// The display column of each `│` in `row`.
  static func separatorColumns(_ row: Substring) -> [Int] {
    var columns: [Int] = []
    var column = 0
    for scalar in row.unicodeScalars {
      if scalar == "│" { columns.append(column) }
      column += cells(scalar)
    }
    return columns
  }

  @Test(arguments: [71, 72])
  func hostileTextIsDrawnAsSignsInEveryWindow(seed: Int) throws {
    let texts = try Self.hostileTexts(seed: seed, count: 16)
    let home = DaemonUnderTest.makeHome()
    try Self.writeLog(texts, in: home)
    let daemon = try DaemonUnderTest(home: home, app: "workspace").start()
    defer {
      _ = daemon.terminate()
      daemon.removeHome()
    }
    // The inspector's lines, piped, print the text as signs.
    let printed = try ConcordCLI.runProgram(ConcordCLI.binary, ["inspect"], environment: ConcordCLI.environment(home: home, app: "workspace"))
    #expect(printed.output.contains("␛"), "\(printed.output.prefix(300))")
    #expect(!printed.output.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value) },
            "inspect printed a control: \(printed.output.debugDescription.prefix(300))")
    // A window in line mode (TERM=dumb) on a real terminal.
    for scope in ["board", "chat:general"] {
      let window = try Tmux(
        command: "env TERM=dumb CONCORD_APP=workspace CONCORD_HOME=\(home.path) \(ConcordCLI.binary.path) attach \(scope)", columns: 120, rows: 60)
      defer { window.kill() }
      try window.waitForScreen(containing: "type `help` for its words")
      try window.waitForScreen(containing: "␛")
      let title = try window.run(["display-message", "-p", "-t", "w", "#{pane_title}"])
      #expect(!title.contains("pwned"), "line mode \(scope): a message set the window's title: \(title)")
      #expect(!window.styledScreen(of: "w").contains("\u{1B}[31m"), "line mode \(scope) coloured text")
    }
    for scope in ["board", "chat:general", "activity", "card:1"] {
      let window = try Tmux(
        command: "env -u NO_COLOR LANG=C.UTF-8 CONCORD_APP=workspace CONCORD_HOME=\(home.path) \(ConcordCLI.binary.path) attach \(scope)",
        columns: 120, rows: 40)
      defer { window.kill() }
      // Connected, and the state drawn (the escapes, as signs, are in every scope's text).
      try window.waitForScreen(containing: "connected", "␛", timeout: 20)
      let screen = window.screen(of: "w")
      let title = try window.run(["display-message", "-p", "-t", "w", "#{pane_title}"])
      #expect(!title.contains("pwned"), "\(scope): a message set the window's title: \(title)")
      // The escapes are there to read, as signs; none reached the terminal.
      #expect(screen.contains("␛"), "\(scope): \(screen)")
      #expect(!screen.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(scope)")
      let styled = window.styledScreen(of: "w")
      // Only the window's own styles: every escape tmux reports is a colour or attribute.
      let escapes = styled.split(separator: "\u{1B}", omittingEmptySubsequences: true).dropFirst(styled.hasPrefix("\u{1B}") ? 0 : 1)
      #expect(escapes.allSatisfy { $0.wholeMatch(of: /\[[0-9;]*m[^\u{1B}]*/) != nil }, "\(scope): \(styled.debugDescription.prefix(400))")
      #expect(!styled.contains("\u{1B}[31m" + "red"), "\(scope): a title coloured what followed it")
      if scope == "board" {
        // Every row of cards keeps its columns where the header has them.
        let rows = screen.split(separator: "\n").filter { $0.contains("│") }
        let header = try #require(rows.first.map(Self.separatorColumns))
        for row in rows { #expect(Self.separatorColumns(row) == header, "misaligned: \(row)") }
        #expect(rows.count > 8, "\(screen)")
      }
    }
  }
}
