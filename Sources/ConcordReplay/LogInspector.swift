import ConcordApp
import ConcordLog
import ConcordWire

/// An app's log inspection with its Swift types erased: what `concord inspect` asks of the app
/// it speaks, whatever the app is. States travel as JSON.
///
/// ```swift
/// let inspector = LogInspector(Workspace.hosted())
/// try inspector.entries(log, 1, 50, EntryFilter()) { print($0.seq, $0.said); return true }
/// let change = try inspector.change(log, 12, false)
/// ```
public struct LogInspector: Sendable {
  /// The answer to a "what if", beside the state the log reached.
  public struct WhatIfAnswer: Sendable {
    /// The state the log would have reached, the entries left out and those refused.
    public var whatIf: WhatIf<JSONValue>
    /// The state the log reached, as of the same entry.
    public var today: JSONValue
    /// What leaving the entries out changes: the operations from today's state to that one.
    public var difference: StateDiff { StateDiff.between(today, whatIf.state) }
  }

  /// Each entry from a seq through another (the end when nil) that passes a filter, with the
  /// app's words; the body returns false to stop (``HostedApp/inspectEntries(of:from:through:matching:_:)``).
  public let entries:
    @Sendable (_ log: ActionLog, _ from: Int64, _ through: Int64?, _ filter: EntryFilter, _ body: (InspectedEntry) throws -> Bool)
      throws -> Void
  /// What an entry changed, in its scope, or in the whole state when asked.
  public let change: @Sendable (_ log: ActionLog, _ seq: Int64, _ wholeState: Bool) throws -> EntryChange
  /// The log replayed without some entries, through a seq (the end when nil).
  public let whatIf: @Sendable (_ log: ActionLog, _ leaving: LeftOut, _ through: Int64?) throws -> WhatIfAnswer

  /// The inspection of `app`'s log.
  ///
  /// - Parameter app: the app whose reducer rebuilds the states and whose words describe them.
  public init<State: Codable & Sendable, Action: Codable & Sendable>(_ app: HostedApp<State, Action>) {
    entries = { log, from, through, filter, body in
      try app.inspectEntries(of: log, from: from, through: through, matching: filter, body)
    }
    change = { log, seq, whole in try app.change(at: seq, in: log, wholeState: whole) }
    whatIf = { log, leaving, through in
      let answer = try app.whatIf(leaving: leaving, in: log, through: through)
      let today = try app.state(at: answer.seq, from: log).state
      return WhatIfAnswer(
        whatIf: WhatIf(
          state: try JSONValue(encoding: answer.state), seq: answer.seq, leftOut: answer.leftOut,
          refused: answer.refused.map { .init(entry: $0.entry, reason: $0.reason) }, applied: answer.applied),
        today: try JSONValue(encoding: today))
    }
  }
}
