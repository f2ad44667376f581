#if canImport(Glibc)
import ConcordPlatform
import ConcordWire
import Glibc
#endif

/// The server's end of a laptop's trunk: `concord dial-stdio --mux`, which ssh runs once for all
/// the laptop's windows, opening a connection to the daemon for each. This process is every
/// connection's peer, owned by the account that logged in, so the daemon knows who each window
/// is by `SO_PEERCRED`, as with a connection of its own.
///
/// ```swift
/// MuxServer.run(input: STDIN_FILENO, output: STDOUT_FILENO) {
///   try UnixSocket.connect(to: home.socket.path)
/// } refusal: { error in "no daemon runs in \(home.path): \(error)" }
/// ```
public enum MuxServer {
  /// Serves the trunk on `input`/`output` until it ends.
  ///
  /// - Parameters:
  ///   - connect: a new connection to the daemon, for each window that opens one.
  ///   - refusal: why there is none, in words for the person at the window, from `connect`'s error.
  public static func run(input: Int32, output: Int32, connect: () throws -> Int32, refusal: (any Error) -> String) {
    signal(SIGPIPE, SIG_IGN)
    let mux = Multiplexer(trunkInput: input, trunkOutput: output)
    while !mux.trunkEnded {
      var set = mux.pollSet()
      if poll(&set, nfds_t(set.count), -1) < 0, errno != EINTR { break }
      mux.serve(set) { frame in
        guard frame.kind == .open else { return false }
        guard mux.channels[frame.channel] == nil else {
          // A relay never opens a channel twice; the first one stays.
          return true
        }
        do {
          let fd = try connect()
          mux.add(fd, as: frame.channel)
          mux.send(MuxFrame(channel: frame.channel, kind: .opened))
        } catch {
          mux.send(MuxFrame(channel: frame.channel, kind: .close, payload: Array(refusal(error).utf8)))
        }
        return true
      }
    }
    for number in Array(mux.channels.keys) { mux.close(number) }
  }
}
