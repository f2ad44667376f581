import ArgumentParser
import ConcordClient
import ConcordDaemonCommand
import ConcordLog
import Foundation

/// `NAME outbox list|sync|drop`: the actions waiting for the daemon.
struct OutboxCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    let name = ConcordProgram.running.name
    return CommandConfiguration(
      commandName: "outbox",
      abstract: "The actions queued while the daemon was unreachable.",
      discussion: """
        Examples:
          \(name) outbox list
          \(name) outbox sync
          \(name) outbox drop 7
          \(name) outbox drop --all
        """,
      subcommands: [List.self, Sync.self, Drop.self])
  }

  struct List: ParsableCommand {
    static var configuration: CommandConfiguration {
      CommandConfiguration(
        abstract: "List the queued actions, oldest first.",
        discussion: "Example:\n  \(ConcordProgram.running.name) outbox list")
    }

    @OptionGroup var options: HomeOptions

    func run() throws {
      let outbox = try Outbox.open(home: options.layout)
      let queued = try outbox.queued()
      if queued.isEmpty {
        print("the outbox is empty")
        return
      }
      let formatter = ISO8601DateFormatter()
      for action in queued {
        print("\(action.cseq)\t\(formatter.string(from: action.queuedAt))\t\(action.scope)\t\(action.action.jsonText)")
      }
    }
  }

  struct Sync: ParsableCommand {
    static var configuration: CommandConfiguration {
      let name = ConcordProgram.running.name
      return CommandConfiguration(
      abstract: "Send the queued actions to the daemon, in order, each exactly once.",
      discussion: """
        Each action leaves the outbox when the daemon has answered it: applied, or refused \
        (with the reason, printed). Interrupted, run it again: nothing is applied twice. \
        When the daemon's log does not carry on from what this home has seen — another log \
        (replaced), or the same log ending before an entry this home was shown (rolled back, or \
        restored from an older copy) — nothing is sent until you decide.

        Examples:
          \(name) outbox sync
          \(name) outbox sync --force            # the log was replaced: send anyway
          \(name) outbox sync --accept-rollback  # the log went back: accept it
        """)
    }

    @OptionGroup var options: HomeOptions

    @Flag(help: "Send even when the daemon's log is not the one this outbox last synced with.")
    var force = false

    @Flag(help: "Accept a daemon whose log ends before what this home has seen, and send to it.")
    var acceptRollback = false

    func run() throws {
      let layout = options.layout
      let outbox = try Outbox.open(home: layout)
      // Before the welcome: a window of the home may witness a newer entry meanwhile.
      let witnessed = try outbox.witnessSnapshot()
      let connection = try ClientConnection(address: options.address, presence: false)
      let report = try OutboxSync.run(
        // Every answer is printed here: no refusal is kept for the windows as unseen.
        outbox, over: connection, force: force, acceptRollback: acceptRollback, witnessedBefore: witnessed,
        shownHere: Set(try outbox.queued().map(\.cseq))
      ) {
        action, outcome, entry in
        print("\(action.cseq)\t\(action.scope)\t\(outcome.said(entry: entry))")
      }
      if let divergence = report.divergence {
        throw CommandFailure(message: "\(divergence): nothing was sent; \(divergence.decision)")
      }
      print("synced: \(report.applied) applied, \(report.refused) refused")
    }
  }

  struct Drop: ParsableCommand {
    static var configuration: CommandConfiguration {
      let name = ConcordProgram.running.name
      return CommandConfiguration(
        abstract: "Forget queued actions without sending them.",
        discussion: "Examples:\n  \(name) outbox drop 7\n  \(name) outbox drop --all")
    }

    @OptionGroup var options: HomeOptions

    @Argument(help: ArgumentHelp("The number of the action (from `\(ConcordProgram.running.name) outbox list`)."))
    var id: Int64?

    @Flag(help: "Drop every queued action.")
    var all = false

    func validate() throws {
      guard (id != nil) != all else { throw ValidationError("name one action, or say --all") }
    }

    func run() throws {
      let outbox = try Outbox.open(home: options.layout)
      let dropped = try outbox.drop(cseq: all ? nil : id)
      if !all, dropped == 0 { throw CommandFailure(message: "no queued action \(id!)") }
      print("dropped \(dropped) action\(dropped == 1 ? "" : "s")")
    }
  }
}
