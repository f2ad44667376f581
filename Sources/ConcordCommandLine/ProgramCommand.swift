import ArgumentParser
import ConcordClient
import ConcordDaemonCommand
import Foundation

/// The program's root command: its subcommands, and the exit codes every one of them keeps.
struct ProgramCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    let program = ConcordProgram.running
    let app = ProgramApp.current
    let scope = app.scopeUsages.first ?? "SCOPE"
    return CommandConfiguration(
      commandName: program.name,
      abstract: program.abstract,
      discussion: """
        Everything lives in CONCORD_HOME (default $XDG_STATE_HOME/\(program.name), else \
        ~/.local/state/\(program.name)): the daemon's socket, the log, the key, and this client's outbox.

        Exit codes: 0 success, 1 failure (one line on stderr says why), 2 usage error, \
        3 daemon unreachable (for send: the action was queued).

        \(app.scopeLine)

        Examples:
          \(program.name) daemon start
          \(program.name) attach \(scope)
          \(program.name) words \(scope)
          \(program.name) state --at 120 \(scope)
          \(program.name) inspect
          \(program.name) log export --format jsonl -o audit.jsonl
        """,
      version: program.version,
      subcommands: [
        AttachCommand.self, SendCommand.self, WordsCommand.self, OutboxCommand.self, StateCommand.self, InspectCommand.self,
        LogCommand.self,
        DaemonCommand.self, DialStdioCommand.self, RelayCommand.self,
      ]
    )
  }
}

extension CommandFailure {
  init(_ error: ClientError) {
    switch error {
    case .unreachable, .remoteUnreachable: self.init(message: error.description, code: .daemonUnreachable)
    case .usage: self.init(message: error.description, code: .usage)
    default: self.init(message: error.description)
    }
  }
}
