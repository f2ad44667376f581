import ArgumentParser
import ConcordDaemonCommand
import ConcordWire
import Foundation

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

      \(examples.app.scopeLine)

      Examples:
        \(name) state
        \(name) state \(examples.first)
        \(name) state --at 120 \(examples.second)
      """) }

  @OptionGroup var log: LogOptions

  @Option(name: .long, help: ArgumentHelp("Rebuild the state as it was after this entry.", valueName: "SEQ"))
  var at: Int64?

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
      FileHandle.standardError.write(Data("state as of entry \(seq)\n".utf8))
      print(json.jsonText)
    } catch let failure as CommandFailure {
      throw failure
    } catch {
      throw CommandFailure(message: "\(error)")
    }
  }
}
