import ArgumentParser
import ConcordClient
import ConcordRelay
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `NAME relay`: the one ssh channel a laptop's windows to one server share, started by the
/// first of them.
struct RelayCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    let name = ConcordProgram.running.name
    return CommandConfiguration(
    commandName: "relay",
    abstract: "Carry this laptop's windows to one server over one ssh channel (started by a window).",
    discussion: """
      A window, command or outbox sync with CONCORD_HOST=ssh://USER@HOST (or --host) connects to \
      this account's relay for that server, and starts it when none runs: you need not run it \
      yourself. The relay runs `ssh HOST \(name) dial-stdio --mux` once and carries every \
      connection over it, so the windows of one laptop cross OpenSSH together. It listens on a \
      socket in $XDG_RUNTIME_DIR/concord-UID (else /tmp/concord-UID), this account's alone, and \
      ends with its ssh or a minute after its last window left.

      Example:
        \(name) relay --host ssh://alice@server --socket /run/user/1000/concord-1000/relay-1.sock
      """) }

  @Option(name: .long, help: ArgumentHelp("The server, as ssh://[USER@]HOST[:PORT][/HOME].", valueName: "URL"))
  var host: String

  @Option(name: .long, help: ArgumentHelp("Where to listen (default: the path windows look for).", valueName: "PATH"))
  var socket: String?

  func run() throws {
    let target = try SSHTarget(host)
    // Its own session: the terminal of the window that started it may close.
    _ = setsid()
    // It outlives the window that started it, so it keeps none of what that one passed on (a
    // pipe its caller reads to the end would never end): everything past standard error.
    let inherited = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    for fd in inherited.compactMap({ Int32($0) }) where fd > 2 { Glibc.close(fd) }
    try Relay(target: target, socketPath: socket ?? RelayLink.socketPath(for: target)).run {
      // The starting window waits for this line (or has given up: then the write fails, no
      // more); nothing more is written here.
      _ = "ready\n".withCString { write(STDOUT_FILENO, $0, 6) }
      let null = open("/dev/null", O_WRONLY)
      dup2(null, STDOUT_FILENO)
      Glibc.close(null)
    }
  }
}
