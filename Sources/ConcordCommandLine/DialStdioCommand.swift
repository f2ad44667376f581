import ArgumentParser
import ConcordClient
import ConcordDaemonCommand
import ConcordPlatform
import ConcordRelay
import ConcordWire
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `NAME dial-stdio`: this account's daemon on standard input and output, for a client on
/// another machine whose `ssh` runs it (`CONCORD_HOST=ssh://alice@server`).
struct DialStdioCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    let name = ConcordProgram.running.name
    return CommandConfiguration(
    commandName: "dial-stdio",
    abstract: "Connect standard input and output to the daemon's socket (what a remote client runs over ssh).",
    discussion: """
      A client with CONCORD_HOST=ssh://USER@HOST (or --host) runs `ssh HOST \(name) dial-stdio` \
      and speaks to the daemon through it. The daemon sees this process as its peer, so it knows \
      the account that logged in over SSH, and --allow-group decides who may connect, as for a \
      local window. Nothing listens on a network port.

      It ends when the daemon closes the connection; the end of its input is passed on as a \
      half-close. Exit code 3 when no daemon runs in the home.

      With --mux it carries all the windows of one laptop (its `\(name) relay`) over one ssh \
      channel, each with a connection to the daemon of its own, and ends with its input.

      Examples:
        \(name) dial-stdio
        \(name) dial-stdio --home /srv/\(name)
      """) }

  @Option(name: .long, help: ArgumentHelp("The daemon's home on this machine (default: CONCORD_HOME, else $XDG_STATE_HOME/\(ConcordProgram.running.name)).", valueName: "DIR"))
  var home: String?

  @Flag(name: .long, help: "Carry many connections, framed, for a laptop's relay.")
  var mux = false

  func run() throws {
    // Always this machine's daemon: this runs where the daemon is.
    let layout = HomeOptions.layout(home: home)
    let name = ConcordProgram.running.name
    if mux {
      MuxServer.run(input: STDIN_FILENO, output: STDOUT_FILENO) {
        try UnixSocket.connect(to: layout.socket.path)
      } refusal: { error in
        // The same words as without --mux when nothing listens; else what went wrong.
        if case let UnixSocketError.unreachable(reason) = error, reason.hasPrefix("no socket at") || reason.hasPrefix("Connection refused") {
          return "\(name): no daemon runs in \(layout.directory.path) on this machine; start it there with `\(name) daemon start`"
        }
        return "\(name): the daemon in \(layout.directory.path) could not be reached: \(error)"
      }
      return
    }
    let socket: Int32
    do {
      socket = try UnixSocket.connect(to: layout.socket.path)
    } catch {
      throw CommandFailure(
        message: "no daemon runs in \(layout.directory.path) on this machine; start it there with `\(name) daemon start`",
        code: .daemonUnreachable)
    }
    guard StreamRelay.run(input: STDIN_FILENO, output: STDOUT_FILENO, socket: socket) else {
      throw CommandFailure(message: "the connection to the daemon broke: \(String(cString: strerror(errno)))")
    }
  }
}
