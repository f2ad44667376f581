import ConcordApp
import ConcordLog
import ConcordPlatform
import ConcordReplay
import ConcordWire
import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

/// The daemon: boots the app from its log, serves windows on the socket, and shuts down cleanly.
///
/// Run it in a `ServiceGroup` so SIGTERM and SIGINT stop it gracefully: stop accepting, commit
/// what is pending, write a checkpoint, remove the socket.
///
/// ```swift
/// let daemon = ConcordDaemon(app: app, configuration: configuration, logger: logger)
/// let group = ServiceGroup(services: [daemon], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
/// try await group.run()
/// ```
public final class ConcordDaemon<State: Codable & Sendable, Action: Codable & Sendable>: Service, Sendable {
  let app: HostedApp<State, Action>
  let configuration: DaemonConfiguration
  let logger: Logger
  private let fatal = LockedValue<String?>(nil)

  /// A daemon for `app`, not started: nothing is opened until ``run()``.
  ///
  /// - Parameters:
  ///   - app: the app to host: its reducer, scopes, admission and migrations.
  ///   - configuration: where its home, socket, log and key are, and how it runs.
  ///   - logger: where it says what it does (boot, checkpoints, connections, failures).
  public init(app: HostedApp<State, Action>, configuration: DaemonConfiguration, logger: Logger) {
    self.app = app
    self.configuration = configuration
    self.logger = logger
  }

  /// Boots the app from its log and serves windows until a graceful shutdown (SIGTERM or SIGINT
  /// through the `ServiceGroup`) or a failure of the log; then it stops taking actions, commits
  /// and answers what was taken, lets the windows go and writes the final checkpoint.
  ///
  /// Throws ``DaemonError`` when it cannot start (the home is another daemon's, the key does not
  /// open the log, the socket cannot be made) or had to stop.
  public func run() async throws {
    let policy = try PeerPolicy(ownerUID: getuid(), allowGroup: configuration.allowGroup)
    let access = HomeAccess(policy: policy, groupName: configuration.allowGroup)
    let home = configuration.home
    try access.prepare(home: home)
    let lock = try DaemonLock(path: ConcordHome(home).pidFile.path)
    try access.share(home: home)
    let log: ActionLog
    do {
      // Each checkpoint also goes to the daemon's own log output: a copy outside the home, kept
      // at every --log-level (the witness an operator's journal holds must not be filtered out).
      var checkpoints = self.logger
      checkpoints.logLevel = min(checkpoints.logLevel, .notice)
      log = try ActionLog.open(
        at: configuration.logURL, key: configuration.key,
        options: .init(onCheckpoint: { [checkpoints] checkpoint in
          checkpoints.notice("checkpoint seq=\(checkpoint.seq) head=\(checkpoint.head.hex)")
        }))
    } catch {
      throw DaemonError("\(error)")
    }
    let clock = ContinuousClock()
    let started = clock.now
    let booted: BootedState<State>
    do {
      booted = try app.boot(from: log, logger: logger)
    } catch {
      throw DaemonError("cannot start: \(error)")
    }
    logger.info(
      "booted \(app.name) at seq \(booted.seq) (snapshot \(booted.snapshotSeq), \(booted.replayed) replayed) in \(clock.now - started)")

    let server = LockedValue<(any Channel)?>(nil)
    // One event loop for every window and the host: no thread hand-offs on the action path.
    let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    defer { eventLoops.shutdownGracefully { _ in } }
    let eventLoop = eventLoops.next()
    let host = DaemonHost(
      app: app, log: log, booted: booted, snapshotInterval: configuration.snapshotInterval, logger: logger,
      eventLoop: eventLoop,
      onFatal: { [fatal] reason in
        fatal.withLock { $0 = reason }
        server.withLock { $0?.close(promise: nil) }
      })
    let registry = ConnectionRegistry(policy: policy, timing: configuration.connectionTiming, eventLoop: eventLoop, logger: logger)
    let channel = try await bindSocket(group: eventLoops, access: access) { channel in
      try channel.pipeline.syncOperations.addHandlers(
        ByteToMessageHandler(LineFrameDecoder()), ConnectionHandler(host: host, registry: registry))
    }
    server.withLock { $0 = channel }
    logger.info("listening on \(configuration.socketPath)")
    await host.start()
    let housekeeping = eventLoop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { _ in
      registry.checkConnections()
    }

    // Serves until SIGTERM/SIGINT, or until the log fails (the host closes the server then).
    try await withGracefulShutdownHandler {
      try await channel.closeFuture.get()
    } onGracefulShutdown: {
      channel.close(promise: nil)
    }
    housekeeping.cancel()
    // What was reduced is committed and answered before the windows are let go.
    await host.drain()
    try? await eventLoop.flatSubmit { registry.disconnectAll(reason: "the daemon is stopping") }.get()
    try? FileManager.default.removeItem(atPath: configuration.socketPath)
    if let reason = fatal.withLock({ $0 }) {
      throw DaemonError("stopped: \(reason)")
    }
    do {
      try log.close()
    } catch {
      throw DaemonError("the final checkpoint could not be written: \(error)")
    }
    logger.info("stopped cleanly at seq \(log.lastSeq)")
    withExtendedLifetime(lock) {}
  }

  private func bindSocket(
    group: any EventLoopGroup, access: HomeAccess,
    serve: @escaping @Sendable (any Channel) throws -> Void
  ) async throws -> any Channel {
    let path = configuration.socketPath
    // The socket is born 0600 (no moment where others could connect) under a staging name, given
    // to the group there, and only then renamed onto its path: whoever finds the path can use it.
    // One name, no longer than the socket's own: the home's lock makes it this daemon's alone,
    // and a start after a crash between the bind and the rename replaces what was left.
    let staging = URL(filePath: path).deletingLastPathComponent().appending(path: ".bind.sock").path
    // The rename replaces what is at the path: only a socket (a crashed daemon's) may be.
    var existing = stat()
    if lstat(path, &existing) == 0, existing.st_mode & S_IFMT != S_IFSOCK {
      throw DaemonError("\(path) exists and is not a socket; refusing to replace it")
    }
    let listener: Int32
    do {
      listener = try UnixSocket.listen(at: staging, backlog: 256)
    } catch {
      throw DaemonError("cannot make the socket: \(error)")
    }
    let bound: any Channel
    do {
      bound = try await ServerBootstrap(group: group)
        // A peer that shuts its write side (`printf … | socat …`) is still answered: the
        // window's handler closes once everything it read is answered.
        .childChannelOption(.allowRemoteHalfClosure, value: true)
        .childChannelInitializer { channel in channel.eventLoop.makeCompletedFuture { try serve(channel) } }
        .withBoundSocket(listener)
        .get()
    } catch {
      close(listener)
      unlink(staging)
      throw error
    }
    do {
      try access.open(socket: staging)
      guard rename(staging, path) == 0 else {
        throw DaemonError("cannot put the socket at \(path): \(String(cString: strerror(errno)))")
      }
    } catch {
      try? await bound.close()
      try? FileManager.default.removeItem(atPath: staging)
      throw error
    }
    return bound
  }

}

/// Who may connect: the daemon's own account, and the members of one group when allowed.
struct PeerPolicy: Sendable {
  let ownerUID: UInt32
  let allowedGroup: UInt32?

  init(ownerUID: UInt32, allowGroup: String?) throws(DaemonError) {
    self.ownerUID = ownerUID
    guard let allowGroup else {
      allowedGroup = nil
      return
    }
    guard let group = getgrnam(allowGroup) else { throw DaemonError("no group named \(allowGroup)") }
    allowedGroup = group.pointee.gr_gid
  }

  func allows(_ peer: PeerCredentials) -> Bool {
    peer.uid == ownerUID || (allowedGroup.map(peer.isMember(ofGroup:)) ?? false)
  }
}
