import Concord
import ConcordLog
import ConcordWire
import Foundation
import Logging

/// The state a host starts from: the newest valid snapshot, with the log's tail replayed on it.
struct BootedState<State: Sendable>: Sendable {
  var state: State
  /// The last seq replayed.
  var seq: Int64
  var snapshotSeq: Int64
  var highestCseq: [String: Int64]
  /// How many entries were replayed after the snapshot.
  var replayed: Int64
  /// The time of the last entry: the host logs no action before it, whatever the clock says.
  var lastTime: Date?
}

/// Why the daemon refuses to start: the log holds something this app cannot rebuild its state
/// from. It never skips an entry, and never rebuilds a different state.
public struct BootError: Error, Sendable, CustomStringConvertible {
  public var description: String
}

extension HostedApp {
  /// Loads the newest snapshot that opens and decodes, then replays the entries after it without
  /// running effects. Boot time grows with the tail since that snapshot, not the whole log.
  func boot(from log: ActionLog, through last: Int64? = nil, logger: Logger) throws -> BootedState<State> {
    let snapshot = try log.newestSnapshot(of: State.self, notAfter: last)
    for skipped in snapshot?.skipped ?? [] {
      logger.warning("snapshot at seq \(skipped.seq) skipped: \(skipped.reason)")
    }
    var booted = BootedState(
      state: snapshot?.state ?? initialState, seq: snapshot?.seq ?? 0, snapshotSeq: snapshot?.seq ?? 0,
      // Client ids the daemon takes are ASCII, one spelling each; an older log's canonically
      // equivalent ids become one, at the higher cseq (a retry below it is looked up in the log).
      highestCseq: Dictionary(try log.highestCseqByClient(), uniquingKeysWith: max), replayed: 0)
    try log.forEachEntry(from: booted.seq + 1, through: last) { entry in
      let action = try decodeLogged(entry)
      // A refused entry changed nothing when it was written, so replay leaves it out. The
      // reducer is not asked again: the daemon also refuses what its reducer would apply (an
      // action that would make a scope too large to send), for reasons of that moment. What an
      // entry fed back is in the log after it, so each entry is reduced alone.
      if case .applied = entry.record.outcome {
        if let refusal = Reduction.reduce(action, into: &booted.state, reduce: reduce).refusal {
          throw BootError(
            description: "replaying entry \(entry.seq) refuses it (\(refusal.reason)), but it was applied when it was written; the state would differ from the one the log records")
        }
      }
      booted.seq = entry.seq
      booted.replayed += 1
      booted.lastTime = entry.record.at
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

  /// The JSON of one scope (`board`, `card:42`) of `state`, as windows are shown it.
  public func scopeJSON(_ text: String, of state: State) throws -> JSONValue {
    let key = ScopeKey(text)
    let scope = try self.scope(for: key).mapError { BootError(description: $0.description) }.get()
    guard let projected = scope.project(state, key.parameter) else {
      throw BootError(description: "\(text) names nothing in the state")
    }
    return try projected.json().json
  }

  /// The action of a logged entry, migrated from the version that wrote it.
  func decodeLogged(_ entry: LogEntry) throws -> Action {
    let record = entry.record
    let where_ = "entry \(entry.seq) (\(record.app) version \(record.appVersion))"
    guard record.app == name else {
      throw BootError(description: "\(where_) was written by another app; this daemon hosts \(name)")
    }
    guard record.appVersion <= version else {
      throw BootError(description: "\(where_) was written by a newer version; this daemon hosts version \(version)")
    }
    do {
      var json = try JSONValue(parsing: record.action)
      if record.appVersion < version { json = try migrateAction(json, record.appVersion) }
      return try json.decode(Action.self)
    } catch {
      throw BootError(description: "\(where_) cannot be read: \(WireCoding.describe(error))")
    }
  }
}
