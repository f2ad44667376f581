import ArgumentParser
import ConcordDaemonCommand
import ConcordWire
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `NAME state [--at SEQ] [SCOPE]`: the state now, or as it was at any seq.
struct StateCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    let examples = HelpExamples.current
    let name = examples.program
    return CommandConfiguration(
    commandName: "state",
    abstract: "Print the state (or one scope of it) now, or as it was after any entry of the log.",
    discussion: """
      The state is rebuilt from the log alone — the newest snapshot at or before the seq, then \
      the entries after it, without effects — so it works with the daemon stopped.

      On a terminal the JSON is indented for reading; piped, or with --compact, it is one line \
      (keys sorted either way).

      \(examples.app.scopeLine)

      Examples:
        \(name) state
        \(name) state \(examples.first)
        \(name) state --at 120 \(examples.second)
      """) }

  @OptionGroup var log: LogOptions

  @Option(name: .long, help: ArgumentHelp("Rebuild the state as it was after this entry.", valueName: "SEQ"))
  var at: Int64?

  @Flag(name: .long, help: "One line of JSON, even on a terminal (piped output always is).")
  var compact = false

  @Argument(help: ArgumentHelp("A scope, such as \(HelpExamples.current.first) (default: the whole state)."), completion: ScopeCompletion.kind)
  var scope: String?

  func validate() throws {
    if let at, at < 0 { throw ValidationError("--at takes a seq, 0 or more") }
  }

  func run() throws {
    if let remote = log.home.remote {
      return try RemoteRun.relay(["state"] + log.remoteArguments + (at.map { ["--at", String($0)] } ?? []) + (scope.map { [$0] } ?? []), on: remote)
    }
    let actionLog = try log.openLog()
    if let at, at > actionLog.lastSeq {
      throw CommandFailure(message: "the log ends at entry \(actionLog.lastSeq); there is no entry \(at)")
    }
    do {
      let (json, seq) = try ProgramApp.current.stateJSON(at, actionLog, scope)
      // Said once, on the side: the state came from the log (the daemon need not run).
      FileHandle.standardError.write(Data("read from the log, as of entry \(seq)\n".utf8))
      print(compact || isatty(STDOUT_FILENO) != 1 ? json.jsonText : json.prettyJSONText)
    } catch let failure as CommandFailure {
      throw failure
    } catch {
      throw CommandFailure(message: "\(error)")
    }
  }
}
