import ArgumentParser
import Foundation
import ConcordClient

/// `concord`: windows, actions and audit on a running Concord daemon.
@main
struct Concord: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "concord",
    abstract: "Attach windows to a Concord daemon, send actions, and audit its log.",
    discussion: """
      This build contains the Concord core only; the commands that talk to the daemon \
      (attach, send, outbox, log, state, daemon) are not part of it yet.
      """,
    version: "0.1.0"
  )

  func run() throws {
    // Exit code 1 with a one-line reason on stderr, as the command-line contract asks.
    FileHandle.standardError.write(Data("concord: no command is available in this build yet; see README.md\n".utf8))
    throw ExitCode.failure
  }
}
