import ArgumentParser
import ConcordClient
import Foundation

/// `concord`: windows, actions and audit on a Concord daemon.
@main
struct Concord: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "concord",
    abstract: "Attach windows to a Concord daemon, send actions, and audit its log.",
    discussion: """
      Everything lives in CONCORD_HOME (default $XDG_STATE_HOME/concord, else \
      ~/.local/state/concord): the daemon's socket, the log, the key, and this client's outbox.

      Exit codes: 0 success, 1 failure (one line on stderr says why), 2 usage error, \
      3 daemon unreachable (for send: the action was queued).

      Examples:
        concord daemon start
        concord attach board
        concord send board 'add "Buy milk"'
        concord state --at 120 card:1
        concord log export --format jsonl -o audit.jsonl
      """,
    version: "0.1.0",
    subcommands: [
      AttachCommand.self, SendCommand.self, WordsCommand.self, OutboxCommand.self, StateCommand.self, LogCommand.self,
      DaemonCommand.self, DialStdioCommand.self, RelayCommand.self,
    ]
  )

  /// Runs the command; maps errors to the README's exit codes with one line on stderr.
  static func main() {
    // A signal mask inherited from the parent (a test runner, a supervisor) would keep SIGHUP
    // and SIGTERM from reaching a window whose terminal closes: start with none blocked.
    var none = sigset_t()
    sigemptyset(&none)
    pthread_sigmask(SIG_SETMASK, &none, nil)
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch let failure as CommandFailure {
      fail(failure)
    } catch let error as ClientError {
      fail(CommandFailure(error))
    } catch {
      let code = exitCode(for: error)
      if code == .success {
        exit(withError: error)  // --help, --version
      }
      if code == .validationFailure {
        let message = fullMessage(for: error).split(separator: "\n").first.map(String.init) ?? "usage error"
        FileHandle.standardError.write(Data("concord: \(message.replacingOccurrences(of: "Error: ", with: "")) (see `concord --help`)\n".utf8))
        Foundation.exit(ConcordExitCode.usage.rawValue)
      }
      exit(withError: error)
    }
  }

  private static func fail(_ failure: CommandFailure) -> Never {
    FileHandle.standardError.write(Data("concord: \(failure.message)\n".utf8))
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
