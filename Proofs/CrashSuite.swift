import ArgumentParser
import ConcordLog
import ConcordPlatform
import ConcordWire
import DaemonDriving
import Foundation
import PropertyRandom

/// Round after round: clients send through their outboxes, windows watch, the daemon is killed
/// with SIGKILL — at a random moment, just after a snapshot is due, or just after a checkpoint
/// is due — and restarted. After every kill the log must verify, hold every acknowledged action
/// exactly once, and boot into the state its full replay gives.
struct CrashSuite: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "crash",
    abstract: "kill -9 the daemon under load, again and again; nothing acknowledged may be lost or doubled.")

  @Option(help: "Kill-and-restart rounds.") var rounds = 50
  @Option(help: "Clients sending concurrently, each through its own outbox.") var clients = 16
  @Option(help: "Windows attached to the counter, reading updates.") var windows = 3
  @Option(help: "The daemon's snapshot interval (small, so kills land near snapshots).") var snapshotInterval = 250
  @Option(help: "Seed of the random kill moments (printed, to run the same plan again).") var seed: UInt64?

  /// The daemon signs a checkpoint every this many entries (ActionLog's default).
  static let checkpointInterval = ActionLog.Options().checkpointInterval

  enum KillMoment: String, CaseIterable {
    case random = "at a random moment"
    case snapshot = "as a snapshot is due"
    case checkpoint = "as a checkpoint is due"
  }

  func run() throws {
    let seed = self.seed ?? UInt64.random(in: 1...UInt64.max)
    var random = PropertyRandom(seed: seed)
    let work = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: work) }
    let home = try DaemonUnderTest.makeHome(named: "daemon", in: work)
    print("crash suite: \(rounds) rounds, \(clients) clients, \(windows) windows, seed \(seed), home \(home.path)")

    let arguments = ["--snapshot-interval", "\(snapshotInterval)"]
    var daemon = try DaemonUnderTest(home: home, arguments: arguments, outputIn: work)
    try daemon.waitUntilServing()
    let socket = URL(filePath: daemon.socketPath)
    let mode = ClientMode()
    let group = DispatchGroup()
    let senders = try (0..<clients).map { try OutboxClient(home: work.appending(path: "client-\($0)"), socket: socket) }
    for sender in senders { onThread(group) { sender.run(mode: mode) } }
    let watchers = WatchingWindows(socketPath: daemon.socketPath, scopes: Array(repeating: "counter", count: windows))
    onThread(group) { watchers.run(mode: mode) }

    var tally = Tally()
    for round in 1...rounds {
      let moment = KillMoment.allCases[(round - 1) % KillMoment.allCases.count]
      let aimed = try waitForKillMoment(moment, senders: senders, random: &random)
      daemon.kill9()
      mode.set(.hold)
      tally.kills[moment, default: 0] += 1
      if !aimed { tally.missedAims += 1 }

      // The daemon is dead: what it acknowledged must all be in its log, once.
      usleep(30_000)  // the clients see the hold and close their connections
      let inspection = try LogInspection(home: home)
      tally.check(inspection, against: senders)
      let fullReplay = round % 10 == 0 || round == rounds ? try fullReplayCounter(of: home, in: work) : nil
      let started = monotonicNanoseconds()
      daemon = try DaemonUnderTest(home: home, arguments: arguments, outputIn: work)
      try daemon.waitUntilServing()
      tally.boots.append(UInt64(monotonicNanoseconds() - started))
      let counter = try ScopeReader.counter(socket: daemon.socketPath)
      if counter != inspection.appliedIncrements { tally.stateMismatches += 1 }
      if let fullReplay {
        if fullReplay != counter { tally.stateMismatches += 1 }
        tally.fullReplays += 1
      }
      print(
        "round \(round): killed \(moment.rawValue)\(aimed ? "" : " (not reached: killed anyway)") at entry \(inspection.lastSeq);"
          + " log verifies: \(inspection.verification == nil ? "yes" : "NO"); counter \(counter) = replay \(inspection.appliedIncrements)")
      mode.set(.run)
    }

    // The end: every client drains its outbox; every action it ever queued is applied once.
    print("draining the outboxes…")
    mode.set(.drain)
    guard group.wait(timeout: .now() + 120) == .success else { throw DriveError("the outboxes did not drain within 120 s") }
    daemon.stop()
    let final = try LogInspection(home: home)
    tally.check(final, against: senders)
    tally.checkDrained(final, senders: senders)
    daemon = try DaemonUnderTest(home: home, arguments: arguments, outputIn: work)
    try daemon.waitUntilServing()
    let counter = try ScopeReader.counter(socket: daemon.socketPath)
    let queued = senders.reduce(Int64(0)) { $0 + $1.progress.queued }
    if counter != final.appliedIncrements || counter != queued { tally.stateMismatches += 1 }
    daemon.stop()
    tally.windowUpdates = watchers.updates

    tally.print(rounds: rounds, senders: senders, windows: watchers, final: final, counter: counter)
    if !tally.held { throw ExitCode(1) }
  }

  /// Waits for the round's kill moment; false when an aimed moment was not reached in 10 s.
  private func waitForKillMoment(_ moment: KillMoment, senders: [OutboxClient], random: inout PropertyRandom) throws -> Bool {
    func highestSeq() -> Int64 { senders.map(\.progress.highestSeq).max() ?? 0 }
    switch moment {
    case .random:
      usleep(UInt32(50_000 + random.next() % 750_000))
      return true
    case .snapshot, .checkpoint:
      let interval = moment == .snapshot ? Int64(snapshotInterval) : Self.checkpointInterval
      // Let the load settle in, then kill as soon as an acknowledged entry crosses a multiple of
      // the interval: the daemon is taking the snapshot (or has just signed the checkpoint).
      usleep(50_000)
      let target = (highestSeq() / interval + 1) * interval
      let deadline = monotonicNanoseconds() + 10_000_000_000
      while highestSeq() < target {
        guard monotonicNanoseconds() < deadline else { return false }
        usleep(100)
      }
      return true
    }
  }

  /// Copies the stopped daemon's log, deletes the copy's snapshots, boots a daemon on the copy
  /// (every entry replayed) and reads its counter.
  private func fullReplayCounter(of home: URL, in work: URL) throws -> Int64 {
    let copy = try DaemonUnderTest.makeHome(named: "replay-\(UUID().uuidString.prefix(6))", in: work)
    defer { try? FileManager.default.removeItem(at: copy) }
    let (from, to) = (ConcordHome(home), ConcordHome(copy))
    for name in try FileManager.default.contentsOfDirectory(atPath: home.path)
    where name.hasPrefix(from.log.lastPathComponent) || name == from.key.lastPathComponent {
      try FileManager.default.copyItem(at: home.appending(path: name), to: copy.appending(path: name))
    }
    try LogSurgery.removeSnapshots(from: to.log)
    let replay = try DaemonUnderTest(home: copy, outputIn: work)
    defer { replay.stop() }
    try replay.waitUntilServing()
    return try ScopeReader.counter(socket: replay.socketPath)
  }
}
