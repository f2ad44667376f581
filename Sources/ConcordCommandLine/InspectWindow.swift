import ConcordApp
import ConcordDaemonCommand
import ConcordLog
import ConcordPlatform
import ConcordReplay
import ConcordTerminal
import ConcordWindow
import Foundation

/// The full-screen window of `NAME inspect`: an ``InspectorModel`` on a ``Screen``, reading the
/// log a page at a time for it. Everything the window decides is the model's; this reads what it
/// asks for, and looks for new entries four times a second while it follows them.
final class InspectWindow {
  /// How many seqs one read walks: a page of a long log costs this, not the log.
  static let chunk: Int64 = 400

  private var model: InspectorModel
  private let log: ActionLog
  private let inspector: LogInspector
  private let screen: Screen
  /// The home whose outbox witnessed the log, for the trust report.
  private let home: ConcordHome
  /// The last seq read going forward, whether or not the filter let it through: where new
  /// entries start.
  private var readThrough: Int64 = 0

  init(log: ActionLog, inspector: LogInspector, filter: EntryFilter, title: String, home: ConcordHome) throws(ScreenError) {
    self.home = home
    self.log = log
    self.inspector = inspector
    model = InspectorModel(title: title, filter: filter)
    screen = try Screen(colors: ProcessInfo.processInfo.environment["NO_COLOR"] == nil)
  }

  /// Runs the window until the person quits; a line mode when the terminal cannot be drawn on.
  static func run(log: ActionLog, inspector: LogInspector, filter: EntryFilter, home: ConcordHome) throws {
    let title = "\(ConcordProgram.running.name) inspect · \(log.path)"
    let window: InspectWindow
    do {
      window = try InspectWindow(log: log, inspector: inspector, filter: filter, title: title, home: home)
    } catch {
      // No terminal to draw on (TERM=dumb): the entries as lines, as when piped.
      let output = InspectOutput(json: false)
      try inspector.entries(log, 1, nil, filter) { entry in
        output.entry(entry)
        return true
      }
      return
    }
    defer { window.screen.end() }
    try window.loop()
  }

  private func loop() throws {
    guard try perform([.last]) else { return }
    draw()
    while true {
      _ = waitForInput(socket: nil, milliseconds: 250)
      var changed = false
      if model.following, case .list = model.mode, try log.storedLastSeq() > readThrough {
        guard try perform([.later(after: readThrough)]) else { return }
        changed = true
      }
      while let key = screen.readKey() {
        guard try perform(model.handle(.key(key))) else { return }
        changed = true
      }
      if changed { draw() }
    }
  }

  /// Does what the model asks; false when it asks to quit.
  private func perform(_ reads: [InspectorModel.Read]) throws -> Bool {
    for read in reads {
      let reading: InspectorModel.Reading
      do {
        switch read {
        case .quit: return false
        case .last:
          let end = try log.storedLastSeq()
          readThrough = end
          reading = try page(endingAt: end, replacing: true, select: nil)
        case let .earlier(before): reading = try page(endingAt: before - 1, replacing: false, select: before - 1)
        case let .later(after):
          let end = try log.storedLastSeq()
          let through = min(end, after + Self.chunk)
          // Entries already held are not read again.
          let from = max(after, readThrough) + 1
          readThrough = max(readThrough, through)
          reading = .page(try entries(from: from, through: through), end: end, replacing: false, select: nil)
        case let .around(seq):
          let end = try log.storedLastSeq()
          guard seq >= 1, seq <= end else { throw CommandFailure(message: "the log ends at entry \(end); there is no entry \(seq)") }
          readThrough = min(end, seq + Self.chunk / 2)
          reading = .page(
            try entries(from: max(1, seq - Self.chunk / 2), through: readThrough), end: end, replacing: true, select: seq)
        case let .at(time):
          guard let seq = try log.firstSeq(atOrAfter: time) else { throw CommandFailure(message: "no entry is that late") }
          return try perform([.around(seq: seq)])
        case let .change(seq, whole):
          let change = try inspector.change(log, seq, whole)
          reading = .lines(
            title: "entry \(seq) · Esc back",
            InspectOutput.lines(of: change) { OutlineRendering.lines(of: $0, RenderContext(width: 200)) })
        case let .whatIf(seq, everything):
          let entry = try inspector.change(log, seq, false).entry
          let leaving = everything ? LeftOut(user: entry.user, from: entry.at) : LeftOut(seqs: [seq])
          let answer = try inspector.whatIf(log, leaving, nil)
          reading = .lines(title: "what if · Esc back", InspectOutput.lines(of: answer, leaving: leaving))
        case .trust:
          reading = .lines(title: "the chain's trust · Esc back", try TrustReport.lines(of: log, home: home))
        }
      } catch {
        reading = .failure("\(error)")
      }
      _ = model.handle(.read(reading))
    }
    return true
  }

  /// The entries passing the filter up to `last`, reading back a chunk at a time until a
  /// screenful is found or the log's start.
  private func page(endingAt last: Int64, replacing: Bool, select: Int64?) throws -> InspectorModel.Reading {
    let end = try log.storedLastSeq()
    var found: [InspectedEntry] = []
    var upper = min(last, end)
    let wanted = max(40, screen.size.rows)
    while upper >= 1, found.count < wanted {
      let lower = max(1, upper - Self.chunk + 1)
      found = try entries(from: lower, through: upper) + found
      upper = lower - 1
    }
    if upper < 1, !replacing, found.isEmpty { model.reachedStart() }
    return .page(found, end: end, replacing: replacing, select: select)
  }

  private func entries(from: Int64, through: Int64) throws -> [InspectedEntry] {
    guard from <= through else { return [] }
    var found: [InspectedEntry] = []
    try inspector.entries(log, from, through, model.filter) { entry in
      found.append(entry)
      return true
    }
    return found
  }

  private func draw() {
    let (columns, rows) = screen.size
    screen.show(model.frame(columns: columns, rows: rows))
  }
}
