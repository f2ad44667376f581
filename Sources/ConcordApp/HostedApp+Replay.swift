import Concord
import ConcordWire

/// One entry of an app's log as replay needs it: what the log holds, whatever holds the log.
public struct LoggedAction: Sendable {
  /// Its place in the log.
  public var seq: Int64
  /// The app and the version of it that wrote the entry.
  public var app: String
  /// The app's version when it wrote the entry: what `migrate` reads to bring an older action
  /// up to date.
  public var appVersion: Int
  /// The action's JSON text, as the daemon wrote it.
  public var action: String
  /// False for an action the daemon refused: it changed nothing.
  public var applied: Bool

  /// An entry as read from a log (the daemon's, or a test's list).
  ///
  /// - Parameters:
  ///   - seq: its place in the log.
  ///   - app: the app that wrote it.
  ///   - appVersion: that app's version then.
  ///   - action: the action's JSON text.
  ///   - applied: false for a refused action.
  public init(seq: Int64, app: String, appVersion: Int, action: String, applied: Bool) {
    self.seq = seq
    self.app = app
    self.appVersion = appVersion
    self.action = action
    self.applied = applied
  }
}

/// A logged action with its text already parsed: a boot parses on the thread that reads the log,
/// ahead of the one that decodes and reduces. A text that does not parse is told when the entry
/// is replayed, in its turn.
public struct ParsedLoggedAction: Sendable {
  /// The entry as the log holds it.
  public var entry: LoggedAction
  /// Nil when the text was left to be parsed by whoever needs it.
  let json: Result<JSONValue, any Error>?
  /// Where the reading thread filed the text (``TextSlots``); nil when no one did.
  let slot: TextSlot?

  /// - Parameters:
  ///   - entry: the logged action.
  ///   - parse: false leaves the text to be parsed when it is decoded.
  public init(_ entry: LoggedAction, parse: Bool = true) {
    self.init(entry, slot: nil, parse: parse)
  }

  /// An entry the reading thread filed in `slot`: parsed when its text is new there, and left for
  /// ``LoggedActionMemo`` to find decoded otherwise. With no slot (``TextSlots`` was not filing),
  /// parsed.
  public init(_ entry: LoggedAction, slot: TextSlot?) {
    self.init(entry, slot: slot, parse: slot?.isNew ?? true)
  }

  private init(_ entry: LoggedAction, slot: TextSlot?, parse: Bool) {
    self.entry = entry
    self.slot = slot
    json = parse ? Result { try JSONValue(parsing: entry.action) } : nil
  }
}

/// Why the daemon refuses to start: the log holds something this app cannot rebuild its state
/// from. It never skips an entry, and never rebuilds a different state.
public struct BootError: Error, Sendable, CustomStringConvertible {
  /// What the daemon prints before it stops: which entry, and why it cannot be replayed.
  public var description: String

  /// A reason not to start.
  ///
  /// - Parameter description: which entry, and why.
  public init(description: String) { self.description = description }
}

extension HostedApp {
  /// Reduces one logged action into `state`, as replay does: without running effects, and alone,
  /// since what it fed back is in the log right after it (the core's `Reduction`).
  ///
  /// A refused entry changed nothing when it was written, so replay leaves it out. The reducer is
  /// not asked again: the daemon also refuses what its reducer would apply (an action that would
  /// make a scope too large to send), for reasons of that moment.
  ///
  /// ```swift
  /// var state = app.initialState
  /// for entry in entries { try app.replay(entry, into: &state) }
  /// ```
  public func replay(_ entry: LoggedAction, into state: inout State) throws(BootError) {
    try replay(ParsedLoggedAction(entry), into: &state)
  }

  /// Replays an entry whose text was parsed ahead (``ParsedLoggedAction``), as
  /// ``replay(_:into:)`` does.
  public func replay(_ parsed: ParsedLoggedAction, into state: inout State, memo: LoggedActionMemo<Action>? = nil) throws(BootError) {
    let action =
      // An unfiled entry (no slot) goes straight to decoding: through the memo, which is generic
      // and runs unspecialized, it cost about 1,100 instructions more.
      if let memo, let slot = parsed.slot {
        try memo.action(in: slot) { () throws(BootError) in try decodeLogged(parsed) }
      } else {
        try decodeLogged(parsed)
      }
    guard parsed.entry.applied else { return }
    if let refusal = Reduction.reduce(action, into: &state, reduce: reduce).refusal {
      throw BootError(
        description: "replaying entry \(parsed.entry.seq) refuses it (\(refusal.reason)), but it was applied when it was written; the state would differ from the one the log records")
    }
  }

  /// The action of a logged entry, migrated from the version that wrote it.
  package func decodeLogged(_ entry: LoggedAction) throws(BootError) -> Action {
    try decodeLogged(ParsedLoggedAction(entry))
  }

  private func decodeLogged(_ parsed: ParsedLoggedAction) throws(BootError) -> Action {
    let entry = parsed.entry
    // Spelled only for an error: a boot reads this for every entry.
    var where_: String { "entry \(entry.seq) (\(entry.app) version \(entry.appVersion))" }
    guard entry.app == name else {
      throw BootError(description: "\(where_) was written by another app; this daemon hosts \(name)")
    }
    guard entry.appVersion <= version else {
      throw BootError(description: "\(where_) was written by a newer version; this daemon hosts version \(version)")
    }
    do {
      var json = try (parsed.json ?? Result { try JSONValue(parsing: entry.action) }).get()
      if entry.appVersion < version { json = try migrateAction(json, entry.appVersion) }
      return try json.decode(Action.self)
    } catch {
      throw BootError(description: "\(where_) cannot be read: \(WireCoding.describe(error))")
    }
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
}
