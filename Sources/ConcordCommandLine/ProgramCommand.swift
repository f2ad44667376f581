import ArgumentParser
import ConcordClient
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
          \(program.name) log export --format jsonl -o audit.jsonl
        """,
      version: program.version,
      subcommands: [
        AttachCommand.self, SendCommand.self, WordsCommand.self, OutboxCommand.self, StateCommand.self, LogCommand.self,
        DaemonCommand.self, DialStdioCommand.self, RelayCommand.self,
      ]
    )
  }
}

extension ParsableCommand {
  /// Parses this process's arguments with `Self` as the root, runs the command, and exits with
  /// the README's exit codes, one line on stderr saying why when it fails.
  ///
  /// - Parameter program: the name the process goes by, before its messages.
  static func runAndExit(as program: String) -> Never {
    do {
      var command = try parseAsRoot()
      try command.run()
      Foundation.exit(0)
    } catch let failure as CommandFailure {
      fail(failure, program: program)
    } catch let error as ClientError {
      fail(CommandFailure(error), program: program)
    } catch {
      let code = exitCode(for: error)
      if code == .success {
        exit(withError: error)  // --help, --version
      }
      if code == .validationFailure {
        let message = fullMessage(for: error).split(separator: "\n").first.map(String.init) ?? "usage error"
        let said = message.replacingOccurrences(of: "Error: ", with: "")
        fail(CommandFailure.usage("\(said) (see `\(program) --help`)"), program: program)
      }
      exit(withError: error)
    }
  }

  private static func fail(_ failure: CommandFailure, program: String) -> Never {
    FileHandle.standardError.write(Data("\(program): \(failure.message)\n".utf8))
    Foundation.exit(failure.code.rawValue)
  }
}

/// A command's failure: one line for the person, and the exit code scripts rely on.
struct CommandFailure: Error {
  var message: String
  var code: ConcordExitCode = .failure

  static func usage(_ message: String) -> CommandFailure { CommandFailure(message: message, code: .usage) }
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
