import ArgumentParser
import ConcordClient
import ConcordDaemonCommand
import ConcordLog
import ConcordWire
import Foundation

/// `NAME send SCOPE ACTION`: one action, through the outbox.
struct SendCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    let examples = HelpExamples.current
    return CommandConfiguration(
    commandName: "send",
    abstract: "Send one action to a scope; queue it when the daemon is unreachable (exit code 3).",
    discussion: """
      The action is the scope's action as JSON, or in the scope's own words (see `help` in \
      `\(examples.program) attach`, or `\(examples.program) words SCOPE`). It is queued in the outbox first and leaves it once the daemon has \
      answered, so it is applied exactly once however often it is retried. Actions queued \
      earlier are sent first, in order.

      \(examples.app.scopeLine)

      Examples:
        \((examples.sendLines.isEmpty ? ["\(examples.program) send \(examples.first) '{\"CASE\":{}}'"] : examples.sendLines).joined(separator: "\n  "))
      """) }

  @OptionGroup var options: HomeOptions

  @Argument(help: ArgumentHelp("The scope, such as \(HelpExamples.current.first)."), completion: ScopeCompletion.kind)
  var scope: String

  @Argument(help: "The action, as JSON or in the scope's words.")
  var action: String

  func run() throws {
    let json = try ProgramApp.current.action(typed: action, in: scope, program: ConcordProgram.running.name)
    let outbox = try Outbox.open(home: options.layout)
    let queued = try outbox.enqueue(scope: scope, action: json, typed: action.hasPrefix("{") ? nil : action)
    let connection: ClientConnection
    // Before the welcome: a window of the home may witness a newer entry meanwhile.
    let witnessed = try outbox.witnessSnapshot()
    do {
      connection = try ClientConnection(address: options.address, presence: false)
    } catch {
      // Queued either way; only an unreachable daemon is exit code 3 (a refused handshake is a
      // failure of its own).
      let waiting = (try? outbox.count()) ?? 1
      print("queued as \(queued.cseq); \(waiting) action\(waiting == 1 ? "" : "s") waiting in the outbox")
      throw CommandFailure(error)
    }
    var mine: (outcome: ActionOutcome, entry: Int64?)?
    // Its own refusal is said here, and exits 1: not kept for the windows as one nobody saw.
    let report = try OutboxSync.run(outbox, over: connection, witnessedBefore: witnessed, shownHere: [queued.cseq]) {
      action, outcome, entry in
      if action.cseq == queued.cseq {
        mine = (outcome, entry)
      } else {
        print("queued action \(action.cseq) (\(action.scope)): \(outcome.said(entry: entry))")
      }
    }
    if let divergence = report.divergence {
      throw CommandFailure(message: "\(divergence); the action stays queued: \(divergence.decision)")
    }
    switch mine {
    case let (.applied, entry)?: print(ActionOutcome.applied.said(entry: entry))
    case let (refusal, entry)?: throw CommandFailure(message: refusal.said(entry: entry))
    case nil: throw CommandFailure(message: "the daemon did not answer the action; it stays queued")
    }
  }
}
