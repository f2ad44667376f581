import ConcordApp
import ConcordLog
import Foundation
import Logging

/// The state a host starts from: the newest valid snapshot, with the log's tail replayed on it.
package struct BootedState<State: Sendable>: Sendable {
  package var state: State
  /// The last seq replayed.
  package var seq: Int64
  package var snapshotSeq: Int64
  package var highestCseq: [String: Int64]
  /// How many entries were replayed after the snapshot.
  package var replayed: Int64
  /// The time of the last entry: the host logs no action before it, whatever the clock says.
  package var lastTime: Date?
}

extension HostedApp {
  /// Loads the newest snapshot that opens and decodes, then replays the entries after it
  /// (``HostedApp/replay(_:into:)``). Boot time grows with the tail since that snapshot, not the
  /// whole log.
  package func boot(from log: ActionLog, through last: Int64? = nil, logger: Logger) throws -> BootedState<State> {
    let snapshot = try log.newestSnapshot(of: State.self, by: appVersion, notAfter: last)
    for skipped in snapshot?.skipped ?? [] {
      logger.warning("snapshot at seq \(skipped.seq) skipped: \(skipped.reason)")
    }
    var booted = BootedState(
      state: snapshot?.state ?? initialState, seq: snapshot?.seq ?? 0, snapshotSeq: snapshot?.seq ?? 0,
      // Client ids the daemon takes are ASCII, one spelling each; an older log's canonically
      // equivalent ids become one, at the higher cseq (a retry below it is looked up in the log).
      highestCseq: Dictionary(try log.highestCseqByClient(), uniquingKeysWith: max), replayed: 0)
    // Entries are read, opened, filed and parsed on a second thread while this one decodes and
    // reduces them; a text decoded before is not decoded again.
    let memo = LoggedActionMemo<Action>()
    let slots = TextSlots()
    try log.forEachEntry(
      from: booted.seq + 1, through: last,
      preparing: {
        let entry = LoggedAction($0)
        return (ParsedLoggedAction(entry, slot: slots.slot(for: entry)), $0.record.at)
      }
    ) { parsed, at in
      try replay(parsed, into: &booted.state, memo: memo)
      booted.seq = parsed.entry.seq
      booted.replayed += 1
      booted.lastTime = at
    }
    if booted.lastTime == nil, booted.seq > 0 {
      try log.forEachEntry(from: booted.seq, through: booted.seq) { booted.lastTime = $0.record.at }
    }
    return booted
  }

  /// The state as of entry `seq` (the end of the log when nil), rebuilt from the log alone —
  /// from the newest snapshot at or before it — without running effects. What `concord state
  /// --at SEQ` prints.
  ///
  /// ```swift
  /// let (state, seq) = try app.state(at: 120, from: log)
  /// ```
  public func state(at seq: Int64? = nil, from log: ActionLog) throws -> (state: State, seq: Int64) {
    let booted = try boot(from: log, through: seq, logger: Logger(label: "concord.state"))
    return (booted.state, booted.seq)
  }

  /// The action of the entry, migrated from the version that wrote it.
  package func decodeLogged(_ entry: LogEntry) throws -> Action {
    try decodeLogged(LoggedAction(entry))
  }
}

extension HostedApp {
  /// The app and version whose snapshots this app reads and writes.
  package var appVersion: AppVersion { AppVersion(name: name, version: version) }
}

extension LoggedAction {
  /// What replay needs of `entry`.
  public init(_ entry: LogEntry) {
    self.init(
      seq: entry.seq, app: entry.record.app, appVersion: entry.record.appVersion, action: entry.record.action,
      applied: entry.record.outcome == .applied)
  }
}
