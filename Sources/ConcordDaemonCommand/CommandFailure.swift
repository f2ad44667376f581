import ArgumentParser
import Foundation

/// Exit codes of every Concord program, as the README fixes them.
public enum ConcordExitCode: Int32, Sendable {
  case success = 0
  case failure = 1
  case usage = 2
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
