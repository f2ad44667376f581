import ConcordClient
import ConcordPlatform
import ConcordWire
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The laptop's end of the trunk: `concord relay`, one process per server, which the first
/// window to that server starts (``RelayLink``). It listens on a socket of this account's
/// alone, runs one `ssh SERVER concord dial-stdio --mux`, and carries every window's connection
/// over it as a channel. It ends with its ssh — every window then sees its connection end and
/// reconnects, which starts a new relay — or a minute after its last window left.
///
/// Each window is first told how its channel opened, in one line (``RelayAnswer``), then speaks
/// the protocol to the daemon as over a socket of its own.
///
/// ```swift
/// try Relay(target: target, socketPath: RelayLink.socketPath(for: target)).run { print("ready") }
/// ```
public struct Relay {
  public var target: SSHTarget
  public var socketPath: String
  public var environment = ProcessInfo.processInfo.environment
  /// How long the relay outlives its last window (as OpenSSH's `ControlPersist`).
  public var idleSeconds = 60.0

  public init(target: SSHTarget, socketPath: String) {
    self.target = target
    self.socketPath = socketPath
  }

  /// Serves until ssh ends or the relay has been idle for ``idleSeconds``; returns at once when
  /// another relay already serves the socket. `ready` is called once windows can connect.
  public func run(ready: () -> Void) throws(ClientError) {
    // A window that gave up waiting closes the pipe `ready` writes to: a failed write, not death.
    signal(SIGPIPE, SIG_IGN)
    // One relay per socket: the lock is held while the socket is this relay's.
    let lock = open(socketPath + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard lock >= 0 else { throw .local("\(socketPath).lock: \(String(cString: strerror(errno)))") }
    guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
      Glibc.close(lock)
      return
    }
    let listener: Int32
    do { listener = try listen() } catch {
      Glibc.close(lock)
      throw error
    }
    // No window may connect to a relay that is going; and once the socket is gone, the lock is
    // let go at once, so that the next window's relay can start while this one finishes.
    var listening = true
    func stopListening() {
      guard listening else { return }
      listening = false
      unlink(socketPath)
      Glibc.close(listener)
      Glibc.close(lock)
    }
    defer { stopListening() }
    ready()
    let transport = try SSHTransport.open(target, running: ["dial-stdio", "--mux"], environment: environment)
    defer { transport.close() }

    let mux = Multiplexer(trunkInput: transport.fileDescriptor, trunkOutput: transport.fileDescriptor)
    var unopened: Set<UInt32> = []
    var next: UInt32 = 1
    var idleSince: Date? = Date()
    while !mux.trunkEnded {
      var timeout: Int32 = -1
      if mux.channels.isEmpty {
        let since = idleSince ?? Date()
        idleSince = since
        let left = idleSeconds - Date().timeIntervalSince(since)
        if left <= 0 { break }
        timeout = Int32(left * 1000) + 1
      } else {
        idleSince = nil
      }
      var set = mux.pollSet(extra: [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)])
      if poll(&set, nfds_t(set.count), timeout) < 0, errno != EINTR { break }
      if set[0].revents & Int16(POLLIN) != 0 {
        while let window = accept(on: listener) {
          mux.add(window, as: next)
          mux.send(MuxFrame(channel: next, kind: .open))
          unopened.insert(next)
          next &+= 1
        }
      }
      mux.serve(set) { frame in
        guard unopened.contains(frame.channel) else { return false }
        switch frame.kind {
        case .opened:
          unopened.remove(frame.channel)
          mux.channels[frame.channel]?.pending.append(RelayAnswer.opened.line)
          mux.flush(frame.channel)
          return true
        case .close:
          // The server could not reach its daemon: the window is told why, then closed.
          unopened.remove(frame.channel)
          let said = String(decoding: frame.payload, as: UTF8.self)
          mux.channels[frame.channel]?.pending.append(RelayAnswer.failed(status: 3, said: said).line)
          return false
        default: return false
        }
      }
    }
    // A window that connected meanwhile finds its connection ended before any answer, and
    // starts the next relay.
    stopListening()
    var (status, said): (Int32?, String) = (nil, "")
    if mux.trunkEnded {
      // ssh is told its input has ended, so it exits and says why.
      shutdown(transport.fileDescriptor, Int32(SHUT_RDWR))
      (status, said) = transport.ending()
      if let malformed = mux.malformed {
        let program = ProgramName.current
        said = "the server's `\(program) dial-stdio --mux` answered something else (\(malformed)): is the same \(program) installed there, and does its shell print nothing?"
      }
    }
    // What came for each window before the end is still given to it.
    for (number, var channel) in mux.channels {
      if unopened.contains(number) { channel.pending.append(RelayAnswer.failed(status: status ?? 255, said: said).line) }
      _ = channel.pending.write(to: channel.fd)
      Glibc.close(channel.fd)
    }
  }

  /// The socket windows connect to, made this account's alone before anyone can connect.
  private func listen() throws(ClientError) -> Int32 {
    let fd: Int32
    do throws(UnixSocketError) {
      fd = try UnixSocket.listen(at: socketPath, backlog: 64)
    } catch {
      throw .local("the relay's socket cannot be made: \(error.description)")
    }
    // Accepted until none waits: the listener never blocks.
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    return fd
  }

  /// The next window waiting to connect, nil when none waits; one of another account's is
  /// closed and skipped (the socket's directory is this account's too).
  private func accept(on listener: Int32) -> Int32? {
    while true {
      let fd = Glibc.accept(listener, nil, nil)
      guard fd >= 0 else { return nil }
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      if UnixSocket.peerCredentials(of: fd)?.uid == getuid() { return fd }
      Glibc.close(fd)
    }
  }
}
