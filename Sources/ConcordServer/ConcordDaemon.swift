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
    let lock = try DaemonLock(path: home.appending(path: "concordd.pid").path)
    let log: ActionLog
    do {
      log = try ActionLog.open(at: configuration.logURL, key: configuration.key)
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

    let server = LockedValue<NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>?>(nil)
    let host = Host(
      app: app, log: log, booted: booted, snapshotInterval: configuration.snapshotInterval, logger: logger,
      onFatal: { [fatal] reason in
        fatal.withLock { $0 = reason }
        server.withLock { $0?.channel.close(promise: nil) }
      })
    let policy = try PeerPolicy(ownerUID: getuid(), allowGroup: configuration.allowGroup)
    let channel = try await bindSocket(group: MultiThreadedEventLoopGroup.singleton, groupAccess: policy.allowedGroup != nil)
    server.withLock { $0 = channel }
    logger.info("listening on \(configuration.socketPath)")
    await host.start()

    let logger = self.logger
    let links = LockedValue<[String: WindowLink]>([:])
    let counter = Atomic<Int>(0)
    try await withGracefulShutdownHandler {
      try await channel.executeThenClose { connections in
        try await withThrowingDiscardingTaskGroup { group in
          for try await connection in connections {
            let peer: PeerCredentials
            do {
              peer = try await Self.peerCredentials(of: connection.channel)
            } catch {
              // Usually a peer that connected and left at once. Not knowing who is there, the
              // daemon lets no one in.
              logger.debug("could not read a connection's credentials: \(error)")
              peer = PeerCredentials(pid: 0, uid: .max, gid: .max)
            }
            let id = "w\(counter.add(1, ordering: .relaxed).newValue)"
            let link = WindowLink(id: id, peer: peer) { connection.channel.close(promise: nil) }
            guard policy.allows(peer) else {
              logger.notice("refused a connection from uid \(peer.uid) (pid \(peer.pid))")
              group.addTask { await Self.refuse(connection, peer: peer) }
              continue
            }
            links.withLock { $0[id] = link }
            group.addTask {
              await WindowConnection.serve(connection, link: link, host: host, logger: logger)
              links.withLock { $0[id] = nil }
            }
          }
          // No more connections: let the windows go so the group can end.
          for link in links.withLock({ Array($0.values) }) { link.disconnect(reason: "the daemon is stopping") }
        }
      }
    } onGracefulShutdown: {
      server.withLock { $0?.channel.close(promise: nil) }
    }

    await host.drain()
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

  private func bindSocket(group: any EventLoopGroup, groupAccess: Bool) async throws -> NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never> {
    let path = configuration.socketPath
    // The socket is created with the right mode (no moment where others could connect).
    let previous = umask(groupAccess ? 0o117 : 0o177)
    defer { umask(previous) }
    let channel = try await ServerBootstrap(group: group)
      .serverChannelOption(.backlog, value: 256)
      .bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true) { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineFrameDecoder()))
          return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
        }
      }
    chmod(path, groupAccess ? 0o660 : 0o600)
    return channel
  }

  static func peerCredentials(of channel: any Channel) async throws -> PeerCredentials {
    guard let provider = channel as? any SocketOptionProvider else { throw DaemonError("no socket options") }
    let credentials: KernelPeerCredentials = try await provider.unsafeGetSocketOption(
      level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED)
    ).get()
    return PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
  }

  private static func refuse(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>, peer: PeerCredentials) async {
    try? await connection.executeThenClose { inbound, outbound in
      let message = ServerMessage.error(
        code: .handshake, message: "uid \(peer.uid) may not use this daemon", cseq: nil)
      try await outbound.write(ByteBuffer(bytes: try WireCoding().line(for: message)))
      try await lingerBeforeClosing(inbound)
    }
  }

  /// Reads (and drops) what the peer already sent, for a moment, before closing: a socket
  /// closed with unread input resets the connection, and the peer might lose the answer.
  static func lingerBeforeClosing(_ inbound: NIOAsyncChannelInboundStream<ByteBuffer>) async throws {
    try await withThrowingTaskGroup { group in
      group.addTask { for try await _ in inbound {} }
      group.addTask { try await Task.sleep(for: .milliseconds(500)) }
      _ = try await group.next()
      group.cancelAll()
    }
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
