import Concord
import ConcordApp
import ConcordLog
import ConcordWire
import Logging

/// What one entry changed: the state of the scope it touched (or the whole state) just before
/// it and as of it, rebuilt from the log.
public struct EntryChange: Sendable, Equatable {
  /// The entry.
  public var entry: InspectedEntry
  /// The scope shown: the entry's own, or nil for the whole state (the daemon's own actions,
  /// or when asked for).
  public var scope: String?
  /// The scope's state just before the entry; nil when the scope did not exist then.
  public var before: JSONValue?
  /// The scope's state as of the entry; nil when it no longer exists (a card removed).
  public var after: JSONValue?

  /// What changed, as the operations that turn `before` into `after`; nil when the scope
  /// appeared or went away.
  public var diff: StateDiff? {
    guard let before, let after else { return nil }
    return StateDiff.between(before, after)
  }
}

extension HostedApp {
  /// Walks the entries from `from` through `through` that pass `filter`, in order, each with the
  /// app's words for it. A page of a long log costs a page, not the log: the state is rebuilt
  /// from the newest snapshot before the first entry that can pass, and entries the filter turns
  /// away by their records alone (a person, a scope, an outcome, a time) are only decrypted,
  /// never described. `body` returns false to stop.
  ///
  /// ```swift
  /// var filter = EntryFilter()
  /// filter.user = "mallory"
  /// try app.inspectEntries(of: log, from: 900_001, through: 900_400, matching: filter) { entry in
  ///   print(entry.seq, entry.said); return true
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - log: the log to read.
  ///   - from: the first entry.
  ///   - through: the last entry; the end of the log when nil.
  ///   - filter: which entries to give `body`; every one when empty.
  ///   - body: each entry that passes, in order; false ends the walk.
  public func inspectEntries(
    of log: ActionLog, from: Int64, through: Int64? = nil, matching filter: EntryFilter = EntryFilter(),
    _ body: (InspectedEntry) throws -> Bool
  ) throws {
    let withWords = describeLogged != nil
    var first = max(1, from)
    if filter.narrowsRecords(withWords: withWords) {
      guard let candidate = try firstSeq(in: log, from: first, through: through, where: { filter.mayMatch($0, withWords: withWords) })
      else { return }
      first = candidate
    }
    var state = try self.state(at: first - 1, from: log).state
    // Only an entry that may pass needs the state before it, for its words: keeping it for every
    // entry would make each one that changes a large state copy it.
    try walk(log, from: first, through: through, state: &state, keepingBefore: { withWords && filter.mayMatch($0, withWords: true) }) {
      entry, before, after in
      guard filter.mayMatch(entry.record, withWords: withWords) else { return true }
      let inspected = InspectedEntry(entry, words: before.flatMap { words(for: entry, before: $0, after: after) })
      return filter.matches(inspected) ? try body(inspected) : true
    }
  }

  /// The first entry from `from` through `through` whose record `passes`, read without
  /// rebuilding any state; nil when there is none.
  func firstSeq(in log: ActionLog, from: Int64, through: Int64?, where passes: (LogRecord) -> Bool) throws -> Int64? {
    var found: Int64?
    do {
      try log.forEachEntry(from: from, through: through) { entry in
        if passes(entry.record) {
          found = entry.seq
          throw WalkStopped()
        }
      }
    } catch is WalkStopped {}
    return found
  }

  /// What entry `seq` changed, in the scope it was sent to (or the whole state).
  ///
  /// - Parameters:
  ///   - seq: the entry.
  ///   - log: the log to read.
  ///   - wholeState: true to show the whole state, whatever the entry's scope.
  public func change(at seq: Int64, in log: ActionLog, wholeState: Bool = false) throws -> EntryChange {
    var state = try self.state(at: max(0, seq - 1), from: log).state
    var found: EntryChange?
    try walk(log, from: seq, through: seq, state: &state, keepingBefore: { _ in true }) { entry, before, after in
      let before = before!
      let scope = wholeState || entry.record.scope.isEmpty ? nil : entry.record.scope
      func json(of state: State) -> JSONValue? {
        guard let scope else { return try? JSONValue(encoding: state) }
        return try? scopeJSON(scope, of: state)
      }
      found = EntryChange(
        entry: InspectedEntry(entry, words: words(for: entry, before: before, after: after)),
        scope: scope, before: json(of: before), after: json(of: after))
      return false
    }
    guard let found else { throw BootError(description: "the log has no entry \(seq)") }
    return found
  }

  /// Replays entries `from`…`through` onto `state`, as boot does, calling `body` with each entry
  /// and the state after it — and before it, when `keepingBefore` says so for its record.
  func walk(
    _ log: ActionLog, from: Int64, through: Int64?, state: inout State, keepingBefore: (LogRecord) -> Bool,
    _ body: (LogEntry, _ before: State?, _ after: State) throws -> Bool
  ) throws {
    do {
      try log.forEachEntry(from: from, through: through) { entry in
        let before = keepingBefore(entry.record) ? state : nil
        try replay(LoggedAction(entry), into: &state)
        if try !body(entry, before, state) { throw WalkStopped() }
      }
    } catch is WalkStopped {}
  }

  /// The app's words for an applied entry; nil for a refused one or where the app has none.
  func words(for entry: LogEntry, before: State, after: State) -> String? {
    guard entry.record.outcome.isApplied, let describeLogged,
      let action = try? decodeLogged(entry)
    else { return nil }
    return describeLogged(action, before, after)
  }
}

/// Ends a walk early, when its body has seen what it needed.
private struct WalkStopped: Error {}
