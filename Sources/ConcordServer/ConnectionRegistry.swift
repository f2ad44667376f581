import ConcordPlatform
import ConcordWire
import Logging
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's connected windows, and who may connect.
///
/// It lives on the host's event loop, like the connections it keeps: every method runs there,
/// so it needs no lock (hence `@unchecked Sendable`; it is only handed to that loop's tasks).
/// Once a second it looks after the windows: a `ping` to the quiet ones, a disconnect for the
/// ones that do not answer it or have not taken a byte for too long.
final class ConnectionRegistry: @unchecked Sendable {
  let policy: PeerPolicy
  let logger: Logger
  let timing: Liveness.Timing
  /// How many actions each window may have unanswered.
  let writers = WriterShare()
  /// The windows to write at the end of this turn of the loop.
  let flushes: PendingFlushes
  private let eventLoop: any EventLoop
  private var connections: [String: Connection] = [:]
  private var admitted = 0
  private var whenEmpty: EventLoopPromise<Void>?

  init(policy: PeerPolicy, timing: Liveness.Timing, eventLoop: any EventLoop, logger: Logger) {
    self.policy = policy
    self.timing = timing
    self.eventLoop = eventLoop
    self.logger = logger
    flushes = PendingFlushes(eventLoop: eventLoop)
  }

  /// The peer of a Unix socket, as the kernel reports it; nobody (uid -1) when it cannot be read
  /// — usually a peer that connected and left at once. Not knowing who is there, the daemon
  /// lets no one in.
  func peerCredentials(of channel: any Channel) -> PeerCredentials {
    let nobody = PeerCredentials(pid: 0, uid: .max, gid: .max)
    guard let provider = channel as? any SocketOptionProvider else { return nobody }
    let read = LockedValue<PeerCredentials?>(nil)
    // On the channel's own loop the option is read at once: the future is already complete.
    let future: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
      level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
    future.whenComplete { result in
      switch result {
      case let .success(credentials):
        read.withLock { $0 = credentials }
      case let .failure(error):
        self.logger.debug("could not read a connection's credentials: \(error)")
      }
    }
    return read.withLock { $0 } ?? nobody
  }

  /// Registers a window of `peer`; `close` closes its connection.
  func admit(peer: PeerCredentials, close: @escaping @Sendable () -> Void) -> Connection {
    admitted += 1
    let connection = Connection(id: "w\(admitted)", peer: peer, close: close)
    connections[connection.id] = connection
    return connection
  }

  func remove(_ connection: Connection) {
    connections[connection.id] = nil
    if connections.isEmpty, let promise = whenEmpty {
      whenEmpty = nil
      promise.succeed()
    }
  }

  /// Disconnects every window; the future completes when all are gone, or after `grace`.
  func disconnectAll(reason: String, grace: TimeAmount = .seconds(2)) -> EventLoopFuture<Void> {
    guard !connections.isEmpty else { return eventLoop.makeSucceededVoidFuture() }
    let promise = eventLoop.makePromise(of: Void.self)
    whenEmpty = promise
    for connection in connections.values { connection.disconnect(reason: reason) }
    eventLoop.scheduleTask(in: grace) { promise.succeed() }
    return promise.futureResult
  }

  /// Pings the quiet connections; drops the dead and the stuck ones.
  func checkConnections() {
    let now = Connection.now
    for connection in connections.values {
      switch connection.liveness(at: now, timing: timing) {
      case .alive:
        break
      case .ping:
        // Not an answer: it goes out even while the window awaits one.
        connection.queue.push(.ping)
      case .stuck:
        logger.notice("window \(connection.id) has not read anything for \(timing.stuckTimeout): disconnected")
        connection.disconnect(reason: "it has not read anything for \(timing.stuckTimeout)")
      case .gone:
        logger.notice("window \(connection.id) did not answer a ping for \(timing.pingTimeout): disconnected")
        connection.disconnect(reason: "no answer to ping for \(timing.pingTimeout)")
      }
    }
  }
}
