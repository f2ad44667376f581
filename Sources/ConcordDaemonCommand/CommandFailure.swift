import ArgumentParser
import Foundation

/// Exit codes of every Concord program, as the README fixes them: a script tells by the code
/// alone whether to fix its command, wait for the daemon, or give up.
///
/// ```sh
/// shoplist send list 'add milk 2'
/// [ $? -eq 3 ] && echo "no daemon: the action waits in the outbox"
/// ```
public enum ConcordExitCode: Int32, Sendable {
  /// 0: the command did what it was asked.
  case success = 0
  /// 1: it failed; the line on standard error says why.
  case failure = 1
  /// 2: the command line was wrong (an unknown option, a scope or action that names nothing);
  /// running it again as it is will not help.
  case usage = 2
  /// 3: no daemon answered; a command that sends actions has kept them in the outbox, to be
  /// sent once it is back.
  case daemonUnreachable = 3
}

/// A command's failure: one line for the person, and the exit code scripts rely on.
package struct CommandFailure: Error {
  package var message: String
  package var code: ConcordExitCode = .failure

  package init(message: String, code: ConcordExitCode = .failure) {
    self.message = message
    self.code = code
  }

  package static func usage(_ message: String) -> CommandFailure { CommandFailure(message: message, code: .usage) }
}

extension ParsableCommand {
  /// Parses this process's arguments with `Self` as the root, runs the command, and exits with
  /// the README's exit codes, one line on stderr saying why when it fails.
  ///
  /// - Parameters:
  ///   - program: the name the process goes by, before its messages.
  ///   - failure: the failure another kind of error is, if it is one.
  package static func runAndExit(as program: String, failure: (any Error) -> CommandFailure? = { _ in nil }) -> Never {
    do {
      var command = try parseAsRoot()
      try command.run()
      Foundation.exit(0)
    } catch let failure as CommandFailure {
      fail(failure, program: program)
    } catch {
      if let known = failure(error) { fail(known, program: program) }
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
