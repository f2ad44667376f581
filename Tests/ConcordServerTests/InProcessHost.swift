import ConcordApp
import ConcordLog
import ConcordPlatform
import ConcordReplay
import ConcordWire
import DaemonDriving
import Foundation
import Logging

@testable import ConcordServer

/// An app's log in a fresh home, and the daemon's `DaemonHost` booted from it in this process: for
/// tests that act as windows on the host itself, without a socket or a daemon process.
///
/// ```swift
/// let hosted = try InProcessHost(app: SampleApp.hosted)
/// defer { hosted.removeHome() }
/// let host = try hosted.makeHost()
/// let window = await hosted.window("w", on: host, attachedTo: "counter")
/// ```
struct InProcessHost<State: Codable & Sendable, Action: Codable & Sendable> {
  let app: HostedApp<State, Action>
  let home: URL
  let log: ActionLog
  let logger: Logger

  init(app: HostedApp<State, Action>, logOptions: ActionLog.Options = .init(), logger: Logger = Logger(label: "t")) throws {
    self.app = app
    self.logger = logger
    home = DaemonUnderTest.makeHome()
    log = try ActionLog.open(at: ConcordHome(home).log, key: .file(ConcordHome(home).key), options: logOptions)
  }

  /// A host booted from the log as it is now; a test may make another later, as a restarted
  /// daemon would.
  func makeHost(
    snapshotInterval: Int64 = 1_000_000, wallClock: @escaping @Sendable () -> Date = Date.init,
    onFatal: @escaping @Sendable (String) -> Void = { _ in }
  ) throws -> DaemonHost<State, Action> {
    DaemonHost(
      app: app, log: log, booted: try app.boot(from: log, logger: logger), snapshotInterval: snapshotInterval,
      logger: logger, wallClock: wallClock, onFatal: onFatal)
  }

  /// A window welcomed by `host`, attached to `scope` (with `since`, as a reconnecting window),
  /// of this process's account unless `uid` names another.
  func window(
    _ id: String, pid: Int32 = 1, uid: UInt32 = getuid(), on host: DaemonHost<State, Action>, attachedTo scope: String,
    since: LogPosition? = nil
  ) async -> Connection {
    let window = Connection(id: id, peer: PeerCredentials(pid: pid, uid: uid, gid: getgid()), close: {})
    _ = await host.welcome(for: window)
    await host.handle(.attach(scope: scope, since: since), from: window)
    return window
  }

  func removeHome() {
    try? FileManager.default.removeItem(at: home)
  }
}
