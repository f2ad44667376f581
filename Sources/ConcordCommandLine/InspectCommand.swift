import ArgumentParser
import ConcordDaemonCommand
import ConcordJSON
import ConcordLog
import ConcordReplay
import Foundation

/// `NAME inspect`: the log as a time machine — every entry in the app's words, what each
/// changed, and what the state would be without some of them.
struct InspectCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    let name = ConcordProgram.running.name
    return CommandConfiguration(
      commandName: "inspect",
      abstract: "Step through the log: who did what, what each entry changed, and what if some had not happened.",
      discussion: """
        On a terminal, a full-screen window: the entries in the app's words, newest last, \
        following new ones live until you scroll back; Enter shows what the selected entry \
        changed (w: in the whole state), / filters, g jumps to a seq or a time, x shows the \
        state without the selected entry, q quits. Piped, or with --json, it prints the entries \
        the filters let through, one a line; --show prints one entry's change; --without and \
        --without-user answer "what if" (nothing is written); --export writes the entries shown \
        as an audit export that still verifies whole.

        The log is read directly, with the key, like `\(name) state` (with --host, on the server).

        Examples:
          \(name) inspect
          \(name) inspect --user mallory --scope card: --json
          \(name) inspect --show 120
          \(name) inspect --without-user mallory --after 2026-12-01T09:00:00Z
          \(name) inspect --user mallory --export mallory.jsonl
        """)
  }

  @OptionGroup var log: LogOptions
  @OptionGroup var filter: EntryFilterOptions

  @Option(help: ArgumentHelp("The first entry to list.", valueName: "SEQ"))
  var from: Int64?

  @Option(help: ArgumentHelp("The last entry to list (default: the end).", valueName: "SEQ"))
  var to: Int64?

  @Flag(help: "Print JSON, one object a line, instead of text.")
  var json = false

  @Flag(help: "After the entries, go on printing new ones as they are committed, until interrupted.")
  var follow = false

  @Option(help: ArgumentHelp("Print what this entry changed in its scope, and the scope as of it.", valueName: "SEQ"))
  var show: Int64?

  @Flag(help: "With --show: the change to the whole state, not only the entry's scope.")
  var wholeState = false

  @Option(help: ArgumentHelp("What if this entry had not happened (repeatable).", valueName: "SEQ"))
  var without: [Int64] = []

  @Option(help: ArgumentHelp("What if this person had done nothing (from --after, when given).", valueName: "USER"))
  var withoutUser: String?

  @Option(help: ArgumentHelp("With --without-user: only what they did from this time on.", valueName: "TIME"))
  var after: String?

  @Option(name: .shortAndLong, help: ArgumentHelp("Write the entries shown as an audit export to FILE.", valueName: "FILE"))
  var export: String?

  @Flag(help: "Print the chain's trust: verified through which entry, the signed checkpoints, a rollback this home saw.")
  var trust = false

  func validate() throws {
    if after != nil, withoutUser == nil { throw ValidationError("--after goes with --without-user") }
    if wholeState, show == nil { throw ValidationError("--whole-state goes with --show") }
    if let from, from < 1 { throw ValidationError("--from takes a seq, 1 or more") }
  }

  func run() throws {
    if let remote = log.home.remote {
      if let export {
        return try RemoteRun.relay(["inspect"] + remoteArguments + ["--export", "-"], on: remote, output: export == "-" ? nil : export)
      }
      // The window is drawn on the server, on a terminal ssh joins to this one.
      return try RemoteRun.relay(["inspect"] + remoteArguments, on: remote, terminal: opensWindow)
    }
    let actionLog = try log.openLog()
    let inspector = ProgramApp.current.inspector
    let output = InspectOutput(json: json)
    do {
      if trust {
        return Terminal.writeLines(try TrustReport.lines(of: actionLog, home: log.home.layout))
      }
      if let show {
        return output.change(try inspector.change(actionLog, try existing(show, in: actionLog), wholeState))
      }
      if !without.isEmpty || withoutUser != nil {
        let leaving = LeftOut(
          seqs: Set(try without.map { try existing($0, in: actionLog) }), user: withoutUser,
          from: try after.map { try EntryFilterOptions.time($0, for: "--after") })
        return output.whatIf(try inspector.whatIf(actionLog, leaving, to), leaving: leaving)
      }
      let selection = try filter.filter()
      if let export {
        return try SelectionExport.write(from: actionLog, inspector: inspector, filter: selection, from: from ?? 1, through: to, to: export)
      }
      if opensWindow {
        return try InspectWindow.run(log: actionLog, inspector: inspector, filter: selection, home: log.home.layout)
      }
      // A time filter starts where its first entry is, not at the log's start.
      let start = try from ?? selection.since.flatMap { try actionLog.firstSeq(atOrAfter: $0) } ?? 1
      var end = try to ?? actionLog.storedLastSeq()
      try inspector.entries(actionLog, start, end, selection) { entry in
        output.entry(entry)
        return true
      }
      guard follow, to == nil else { return }
      while true {
        usleep(200_000)
        let last = try actionLog.storedLastSeq()
        guard last > end else { continue }
        try inspector.entries(actionLog, end + 1, last, selection) { entry in
          output.entry(entry)
          return true
        }
        end = last
      }
    } catch let failure as CommandFailure {
      throw failure
    } catch {
      throw CommandFailure(message: "\(error)")
    }
  }

  /// True when the answer is the full-screen window: on a terminal, and asked for nothing to print.
  var opensWindow: Bool {
    Terminal.isInteractive && !json && !follow && !trust && show == nil && without.isEmpty && withoutUser == nil && export == nil
  }

  /// `seq`, when the log holds it; a clear failure otherwise.
  func existing(_ seq: Int64, in log: ActionLog) throws -> Int64 {
    let end = try log.storedLastSeq()
    guard seq >= 1, seq <= end else {
      throw CommandFailure(message: "the log ends at entry \(end); there is no entry \(seq)")
    }
    return seq
  }

  /// The options as the same command on the server takes them.
  var remoteArguments: [String] {
    var arguments = log.remoteArguments + filter.arguments
    if let from { arguments += ["--from", String(from)] }
    if let to { arguments += ["--to", String(to)] }
    if json { arguments.append("--json") }
    if follow { arguments.append("--follow") }
    if let show { arguments += ["--show", String(show)] }
    if wholeState { arguments.append("--whole-state") }
    if trust { arguments.append("--trust") }
    for seq in without { arguments += ["--without", String(seq)] }
    if let withoutUser { arguments += ["--without-user", withoutUser] }
    if let after { arguments += ["--after", after] }
    return arguments
  }
}
