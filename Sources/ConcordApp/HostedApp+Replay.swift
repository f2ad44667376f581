import Concord
import ConcordWire

/// One entry of an app's log as replay needs it: what the log holds, whatever holds the log.
public struct LoggedAction: Sendable {
  /// Its place in the log.
  public var seq: Int64
  /// The app and the version of it that wrote the entry.
  public var app: String
  public var appVersion: Int
  /// The action's JSON text, as the daemon wrote it.
  public var action: String
  /// False for an action the daemon refused: it changed nothing.
  public var applied: Bool

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
  public var entry: LoggedAction
  /// Nil when the text was left to be parsed by whoever needs it.
  let json: Result<JSONValue, any Error>?

  /// - Parameter parse: false leaves the text to be parsed when it is decoded: a boot reads
  ///   many texts it decoded before (``LoggedActionMemo``), which need no parsing.
  public init(_ entry: LoggedAction, parse: Bool = true) {
    self.entry = entry
    json = parse ? Result { try JSONValue(parsing: entry.action) } : nil
  }
}

/// Actions decoded before in one replay, by the text (and app and version) they were decoded from:
/// a log repeats many texts — a counter's increment, a presence change — and the same text of
/// the same version always decodes to the same action. At most `capacity` are kept; past that
/// the memo starts afresh.
public final class LoggedActionMemo<Action> {
  /// The text by spelling, not by Swift's `==`: an action decoded from an NFC text is not the
  /// one its NFD twin (in a log from before texts were put in NFC) decodes to.
  private struct Key: Hashable {
    let app: String
    let appVersion: Int
    let text: SpelledText

    init(_ entry: LoggedAction) {
      (app, appVersion, text) = (entry.app, entry.appVersion, SpelledText(entry.action))
    }
  }

  private var actions: [Key: Action] = [:]
  private let capacity: Int

  public init(capacity: Int = 4_096) { self.capacity = capacity }

  /// The action kept for `entry`'s text, or what `decode` makes of it, kept. An entry that does
  /// not decode is decoded (and fails) every time.
  func action(of entry: LoggedAction, decode: () throws(BootError) -> Action) throws(BootError) -> Action {
    let key = Key(entry)
    if let kept = actions[key] { return kept }
    let action = try decode()
    if actions.count >= capacity { actions.removeAll(keepingCapacity: true) }
    actions[key] = action
    return action
  }
}

/// The texts a reading thread has seen lately, so that it parses only new ones ahead of the
/// thread that decodes: one that was seen is most likely in that thread's ``LoggedActionMemo``
/// (and is parsed there if not). Used by one thread only.
public final class SeenTexts: @unchecked Sendable {
  // @unchecked: owned by the one thread that reads the log.
  private var texts: Set<SpelledText> = []
  private let capacity: Int

  public init(capacity: Int = 4_096) { self.capacity = capacity }

  /// True the first time `text` is seen (again, after the set started afresh).
  public func isNew(_ text: String) -> Bool {
    if texts.count >= capacity { texts.removeAll(keepingCapacity: true) }
    return texts.insert(SpelledText(text)).inserted
  }
}

/// Why the daemon refuses to start: the log holds something this app cannot rebuild its state
/// from. It never skips an entry, and never rebuilds a different state.
public struct BootError: Error, Sendable, CustomStringConvertible {
  public var description: String

  public init(description: String) { self.description = description }
}

extension HostedApp {
  /// Reduces one logged action into `state`, as replay does: without running effects, and alone,
  /// since what it fed back is in the log right after it (``Reduction``).
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
      if let memo { try memo.action(of: parsed.entry) { () throws(BootError) in try decodeLogged(parsed) } } else { try decodeLogged(parsed) }
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
