import Concord
import ConcordApp
import ConcordTerminal
import ConcordWindow
import ConcordWire
import Foundation
import Workspace
import WorkspaceWindows

#if canImport(Glibc)
import Glibc
#endif

/// What a window spends on one change of a big state: the app's renderer on the state as the
/// window holds it (JSON, each state the last one with the daemon's diff applied), the rendered
/// lines read as styled runs, and the screen drawn and sent through ncurses (to /dev/null, on a
/// 200×60 xterm). The goal is under 5 ms a change. "Decoding alone" decodes each state afresh,
/// without the window's memo: what the renderer saves.
///
///     scripts/bench.sh window
@main
enum WindowBenchmarks {
  static let columns = 200
  static let rows = 60

  static func main() throws {
    // The report goes to standard error: standard output is the screen, sent to /dev/null.
    let report = FileHandle.standardError
    let null = open("/dev/null", O_WRONLY)
    dup2(null, STDOUT_FILENO)
    setenv("TERM", "xterm-256color", 1)
    setenv("COLUMNS", "\(columns)", 1)
    setenv("LINES", "\(rows)", 1)
    let screen = try Screen(colors: true)
    defer { screen.end() }

    var results: [String] = []
    let board = try boardJSON(cards: 1_000)
    results.append(try measure("board, 1,000 cards", scope: "board", states: board, screen: screen) { _ = try? $0.decode(BoardView.self) })
    let chat = try channelJSON(messages: 10_000)
    results.append(
      try measure("chat, 10,000 messages", scope: "chat", states: chat, screen: screen) { _ = try? $0.decode(ChannelView.self) })
    screen.end()
    report.write(Data((["redraw per change (median of 50; p90) — goal < 5 ms"] + results).joined(separator: "\n").utf8 + [10]))
    report.write(Data(("reading what a window shows (median of 20)\n" + (try QueuedWindow.measure(queued: 1_000, board: board[0]))).utf8 + [10]))
  }

  /// Times drawing each of `states` after the one before: median and 90th percentile.
  ///
  /// - Parameter decode: decodes a state as the renderer does first, to tell its share.
  static func measure(
    _ name: String, scope: String, states: [JSONValue], screen: Screen, decode: (JSONValue) -> Void
  ) throws -> String {
    let window = Workspace.client.scope(named: scope)!
    var render: [Double] = []
    var total: [Double] = []
    var decoding: [Double] = []
    let clock = ContinuousClock()
    for state in states {
      decoding.append(milliseconds(clock.measure { decode(state) }))
      var lines: [String] = []
      // As a window at the top of the body asks: the rows it shows.
      let rendering = clock.measure { lines = window.render(state, RenderContext(width: columns, shown: 0..<(rows - 4))) }
      let drawing = clock.measure {
        screen.erase()
        for (row, line) in lines.prefix(rows - 4).enumerated() { screen.draw(StyledLine(line), row: 1 + row) }
        screen.refresh()
      }
      render.append(milliseconds(rendering))
      total.append(milliseconds(rendering + drawing))
    }
    return "  \(name): \(format(median(total))) ms (p90 \(format(percentile(total, 0.9))) ms), of which the renderer \(format(median(render))) ms"
      + " (decoding the state alone: \(format(median(decoding))) ms)"
  }

  /// 50 states of a board of `cards` cards, each one card moved from the one before.
  static func boardJSON(cards: Int) throws -> [JSONValue] {
    var state = Workspace.State()
    let reduce = Workspace.hosted().reduce
    func apply(_ action: BoardAction) {
      _ = Reduction.reduce(.board(Authored(user: "bench", at: Date(), action)), into: &state, reduce: reduce)
    }
    apply(.limitColumn(name: "doing", limit: nil))
    for index in 1...cards {
      apply(.addCard(title: "Card \(index) 日本語 😀 with a longer title", column: ["todo", "doing", "done"][index % 3]))
    }
    var states = Updates(try JSONValue(encoding: BoardView(state)))
    for index in 1...50 {
      apply(.moveCard(id: index, column: ["todo", "doing", "done"][(index + 1) % 3], position: 1))
      try states.receive(try JSONValue(encoding: BoardView(state)))
    }
    return states.received
  }

  /// 50 states of a channel that reaches `messages` messages, each one message more.
  static func channelJSON(messages: Int) throws -> [JSONValue] {
    var state = Workspace.State()
    let reduce = Workspace.hosted().reduce
    func say(_ index: Int) {
      let action = ChatAction.say(channel: "general", text: "message \(index): the build is green again @bob see #1 ✅")
      _ = Reduction.reduce(.chat(Authored(user: "bench", at: Date(), action)), into: &state, reduce: reduce)
    }
    for index in 1...(messages - 50) { say(index) }
    var states = Updates(try JSONValue(encoding: ChannelView(state.chat.channels[id: "general"]!, in: state)))
    for index in (messages - 49)...messages {
      say(index)
      try states.receive(try JSONValue(encoding: ChannelView(state.chat.channels[id: "general"]!, in: state)))
    }
    return states.received
  }

  /// The states a window holds, one after each update: the daemon's diff from the state before,
  /// applied to the window's copy, as a window does (the parts a change left alone are the
  /// same storage as before).
  struct Updates {
    private var daemon: JSONValue
    private var window: JSONValue
    private(set) var received: [JSONValue] = []

    init(_ first: JSONValue) {
      daemon = first
      window = first
    }

    mutating func receive(_ next: JSONValue) throws {
      window = try StateDiff.between(daemon, next).apply(to: window)
      daemon = next
      received.append(window)
    }
  }

  static func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
  }

  static func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

  static func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))]
  }

  static func format(_ value: Double) -> String { String(format: "%.2f", value) }
}
