import ConcordLog
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
/// let daemon = try ConcordDaemon(app: app, configuration: configuration, logger: logger)
/// let group = ServiceGroup(services: [daemon], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
/// try await group.run()
/// ```
public final class ConcordDaemon<State: Codable & Sendable, Action: Codable & Sendable>: Service, Sendable {
  let app: HostedApp<State, Action>
  let configuration: DaemonConfiguration
  let logger: Logger
  private let fatal = LockedValue<String?>(nil)

  public init(app: HostedApp<State, Action>, configuration: DaemonConfiguration, logger: Logger) {
    self.app = app
    self.configuration = configuration
    self.logger = logger
  }

  public func run() async throws {
    let home = try prepareHome()
    let lock = try DaemonLock(path: ConcordHome(home).pidFile.path)
    let log: ActionLog
    do {
      // Each checkpoint also goes to the daemon's own log output: a copy outside the home.
      let logger = self.logger
      log = try ActionLog.open(
        at: configuration.logURL, key: configuration.key,
        options: .init(onCheckpoint: { checkpoint in
          logger.notice("checkpoint seq=\(checkpoint.seq) head=\(checkpoint.head.hex)")
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
    let host = Host(
      app: app, log: log, booted: booted, snapshotInterval: configuration.snapshotInterval, logger: logger,
      eventLoop: eventLoop,
      onFatal: { [fatal] reason in
        fatal.withLock { $0 = reason }
        server.withLock { $0?.close(promise: nil) }
      })
    let policy = try PeerPolicy(ownerUID: getuid(), allowGroup: configuration.allowGroup)
    let registry = WindowRegistry(policy: policy, timing: configuration.windowTiming, eventLoop: eventLoop, logger: logger)
    let channel = try await bindSocket(group: eventLoops, groupAccess: policy.allowedGroup != nil) { channel in
      try channel.pipeline.syncOperations.addHandlers(
        ByteToMessageHandler(LineFrameDecoder()), WindowChannelHandler(host: host, registry: registry))
    }
    server.withLock { $0 = channel }
    logger.info("listening on \(configuration.socketPath)")
    await host.start()
    let housekeeping = eventLoop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { _ in
      registry.checkWindows()
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

  /// Creates `CONCORD_HOME` (0700) and refuses one that another account owns or others can enter.
  private func prepareHome() throws(DaemonError) -> URL {
    let home = configuration.home
    do {
      try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw DaemonError("cannot create \(home.path): \(error.localizedDescription)")
    }
    var info = stat()
    guard stat(home.path, &info) == 0 else { throw DaemonError("cannot read \(home.path)") }
    guard info.st_uid == getuid() else {
      throw DaemonError("\(home.path) belongs to uid \(info.st_uid), not to this account; refusing to put a socket there")
    }
    if info.st_mode & 0o077 != 0, configuration.allowGroup == nil {
      chmod(home.path, 0o700)
    }
    return home
  }

  private func bindSocket(
    group: any EventLoopGroup, groupAccess: Bool,
    serve: @escaping @Sendable (any Channel) throws -> Void
  ) async throws -> any Channel {
    let path = configuration.socketPath
    // The socket is created with the right mode (no moment where others could connect).
    let previous = umask(groupAccess ? 0o117 : 0o177)
    defer { umask(previous) }
    let channel = try await ServerBootstrap(group: group)
      .serverChannelOption(.backlog, value: 256)
      // A peer that shuts its write side (`printf … | socat …`) is still answered: the window's
      // handler closes once everything it read is answered.
      .childChannelOption(.allowRemoteHalfClosure, value: true)
      .childChannelInitializer { channel in channel.eventLoop.makeCompletedFuture { try serve(channel) } }
      .bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true)
      .get()
    chmod(path, groupAccess ? 0o660 : 0o600)
    return channel
  }

}

/// The layout of Linux's `struct ucred` (SO_PEERCRED), which Glibc's Swift overlay does not
/// export without `_GNU_SOURCE`.
struct KernelPeerCredentials: Sendable {
  var pid: Int32 = 0
  var uid: UInt32 = 0
  var gid: UInt32 = 0
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
