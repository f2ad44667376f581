import Concord
import ConcordApp
import ConcordLog
import Foundation

/// The entries a "what if" leaves out: some by seq, and everything one person did from a time.
///
/// ```swift
/// LeftOut(seqs: [12])                                  // one entry
/// LeftOut(user: "mallory", from: yesterday)            // all Mallory did since yesterday
/// ```
public struct LeftOut: Sendable, Equatable {
  /// Entries left out by their seq.
  public var seqs: Set<Int64>
  /// Everything this person did is left out (from ``from`` when it is set).
  public var user: String?
  /// With ``user``: only what they did at or after this time.
  public var from: Date?

  /// The entries to leave out.
  ///
  /// - Parameters:
  ///   - seqs: entries by seq.
  ///   - user: a person whose every entry is left out.
  ///   - from: with `user`, only their entries at or after this time.
  public init(seqs: Set<Int64> = [], user: String? = nil, from: Date? = nil) {
    self.seqs = seqs
    self.user = user
    self.from = from
  }

  /// Whether `entry` is one of those named.
  func names(_ entry: LogEntry) -> Bool {
    if seqs.contains(entry.seq) { return true }
    guard let user, entry.record.user == user else { return false }
    return from.map { entry.record.at >= $0 } ?? true
  }
}

/// The state the log would have reached without some of its entries, and what that changes.
public struct WhatIf<State: Sendable>: Sendable {
  /// A later action that the app would have refused, and why.
  public struct Refusal: Sendable, Equatable {
    /// The entry, as the log holds it (applied, when it was written).
    public var entry: InspectedEntry
    /// Why the app would refuse it now.
    public var reason: String
  }

  /// The state after the last entry, without those left out.
  public var state: State
  /// The last entry replayed.
  public var seq: Int64
  /// The entries left out, named or fed back by one that was (in order).
  public var leftOut: [Int64]
  /// The applied entries that would have been refused, in order: they too are left out of
  /// ``state``, with what they fed back.
  public var refused: [Refusal]
  /// The entries refused when they were written that would have been applied, in order: they
  /// are in ``state``, with what they would have fed back.
  public var applied: [InspectedEntry] = []
}

extension HostedApp {
  /// Replays the log in memory without the entries `leaving` names, and says which later actions
  /// would have been refused and why — and which refused ones would have been applied. Nothing
  /// is written. Every other entry is reduced again, as the daemon would have reduced it: an
  /// entry's fed-back actions (the daemon logs them right after it, under its own client, with
  /// the entry's user, scope and time) go with it, and an action refused when it was written
  /// is offered again, through the app's admission, with what it would feed back.
  ///
  /// ```swift
  /// let answer = try app.whatIf(leaving: LeftOut(user: "mallory"), in: log)
  /// for refusal in answer.refused { print(refusal.entry.seq, refusal.reason) }
  /// ```
  ///
  /// - Parameters:
  ///   - leaving: the entries to leave out.
  ///   - log: the log to read.
  ///   - through: the last entry to replay; the end of the log when nil.
  public func whatIf(leaving: LeftOut, in log: ActionLog, through: Int64? = nil) throws -> WhatIf<State> {
    // The state before the first entry that could be left out is the log's own.
    var start = leaving.seqs.min() ?? Int64.max
    if leaving.user != nil {
      start = min(start, try leaving.from.flatMap { try log.firstSeq(atOrAfter: $0) } ?? 1)
    }
    let booted = try self.state(at: start == .max ? through : max(0, start - 1), from: log)
    var answer = WhatIf(state: booted.state, seq: booted.seq, leftOut: [], refused: [])
    guard start != .max else { return answer }
    // The entry whose fed-back actions are left out with it: they follow it at once.
    var cause: LogRecord?
    try log.forEachEntry(from: booted.seq + 1, through: through) { entry in
      answer.seq = entry.seq
      let record = entry.record
      if let last = cause, record.client == LogRecord.daemonClient, record.user == last.user,
        record.scope == last.scope, record.at == last.at
      {
        answer.leftOut.append(entry.seq)
        return
      }
      cause = nil
      if leaving.names(entry) {
        answer.leftOut.append(entry.seq)
        cause = record
        return
      }
      let action = try decodeLogged(entry)
      guard record.outcome.isApplied else {
        let step = Reduction.reduceWithFeedback(action, into: &answer.state, reduce: reduceAdmitted, each: { _ in })
        if step.refusal == nil { answer.applied.append(InspectedEntry(entry, words: nil)) }
        return
      }
      if let refusal = Reduction.reduce(action, into: &answer.state, reduce: reduce).refusal {
        answer.refused.append(.init(entry: InspectedEntry(entry, words: nil), reason: refusal.reason))
        cause = record
      }
    }
    return answer
  }
}
