import ArgumentParser
import Foundation
import ConcordServer

/// `concordd`: runs the Concord daemon in the foreground.
@main
struct Concordd: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "concordd",
    abstract: "Run the Concord daemon in the foreground.",
    discussion: """
      The daemon holds the application state, writes every action to the encrypted log, and \
      serves windows over $CONCORD_HOME/\(ConcordServer.socketName). This build contains the \
      Concord core only; the daemon runtime is not part of it yet.
      """,
    version: "0.1.0"
  )

  func run() throws {
    // Exit code 1 with a one-line reason on stderr, as the command-line contract asks.
    FileHandle.standardError.write(Data("concordd: the daemon runtime is not part of this build yet; see README.md\n".utf8))
    throw ExitCode.failure
  }
}
