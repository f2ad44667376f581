import ConcordLog
import Foundation

/// One entry of the log as a person reads it: what the log holds, and what the action did in
/// the app's words (`moved #3 Fix login from todo to doing`), when the app has words for it.
///
/// ```swift
/// try app.inspectEntries(of: log, from: 1, through: 20) { entry in
///   print(entry.seq, entry.user, entry.words ?? entry.action)
///   return true   // go on
/// }
/// ```
public struct InspectedEntry: Sendable, Equatable {
  /// Its place in the log.
  public var seq: Int64
  /// When the daemon took the action.
  public var at: Date
  /// Who sent it: the account of the window's process, or `concordd` for the daemon's own.
  public var user: String
  /// The window (or the daemon) that sent it, and its number there.
  public var client: String
  /// The window's number for it: with ``client``, what makes a retry the same action.
  public var cseq: Int64
  /// The scope it was sent to (`card:7`); empty for the daemon's own actions.
  public var scope: String
  /// The action as the log keeps it: the app's JSON text.
  public var action: String
  /// Applied, or refused with the reason.
  public var outcome: ActionOutcome
  /// What it did, in the app's words; nil when the app has none for it, or it was refused.
  public var words: String?

  /// An entry of `log`, with the words the app said for it.
  ///
  /// - Parameters:
  ///   - entry: the entry as the log opened it.
  ///   - words: what the action did, in the app's words.
  public init(_ entry: LogEntry, words: String?) {
    seq = entry.seq
    at = entry.record.at
    user = entry.record.user
    client = entry.record.client
    cseq = entry.record.cseq
    scope = entry.record.scope
    action = entry.record.action
    outcome = entry.record.outcome
    self.words = words
  }

  /// An entry from its parts, as a test or another reader of a log makes one.
  ///
  /// - Parameters:
  ///   - seq: its place in the log.
  ///   - at: when the daemon took it.
  ///   - user: who sent it.
  ///   - client: the window (or daemon) that sent it.
  ///   - cseq: that window's number for it.
  ///   - scope: the scope it was sent to.
  ///   - action: the action's JSON text.
  ///   - outcome: applied or refused.
  ///   - words: what it did, in the app's words.
  public init(
    seq: Int64, at: Date, user: String, client: String, cseq: Int64, scope: String, action: String,
    outcome: ActionOutcome, words: String?
  ) {
    self.seq = seq
    self.at = at
    self.user = user
    self.client = client
    self.cseq = cseq
    self.scope = scope
    self.action = action
    self.outcome = outcome
    self.words = words
  }

  /// The words, or the action's JSON when the app has none: what a list of entries shows.
  public var said: String { words ?? action }
}
