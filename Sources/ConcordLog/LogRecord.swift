import ConcordJSON
import Foundation

/// One action as the log keeps it: who did what, where, and what became of it.
///
/// Only `client`, `cseq` and the time are stored in the clear (the daemon needs them to find
/// duplicates and to order entries); everything else is sealed.
///
/// ```swift
/// let record = LogRecord(
///   client: "win-7f3a", cseq: 12, at: Date(), user: "alice", scope: "board",
///   action: #"{"addCard":{"title":"Fix login"}}"#, outcome: .applied,
///   app: "Workspace", appVersion: 1)
/// ```
public struct LogRecord: Sendable, Equatable {
  /// The client id under which the daemon records its own actions: those of effects and of the
  /// lifecycle, and those a reduction fed back with `.send` (right after the action that sent
  /// them, with its user, scope and time).
  /// A literal, as it was where the daemon kept it: compared on every send, it costs no lazy
  /// global's check.
  public static var daemonClient: String { "concordd" }

  /// The id of the client (window or CLI) that sent the action.
  public var client: String
  /// The client's own sequence number for the action: `(client, cseq)` is unique in a log.
  public var cseq: Int64
  /// When the daemon received the action, to the millisecond.
  public var at: Date
  /// The acting user, as the kernel reported the peer.
  public var user: String
  /// The scope the action was sent to.
  public var scope: String
  /// The action, as JSON text.
  public var action: String
  /// Whether the reducer applied the action or refused it.
  public var outcome: ActionOutcome
  /// The hosted app's name and schema version, so a later version can migrate the action.
  public var app: String
  public var appVersion: Int

  public init(
    client: String, cseq: Int64, at: Date, user: String, scope: String, action: String,
    outcome: ActionOutcome, app: String, appVersion: Int
  ) {
    self.client = client
    self.cseq = cseq
    self.at = Date(milliseconds: at.milliseconds)
    self.user = user
    self.scope = scope
    self.action = action
    self.outcome = outcome
    self.app = app
    self.appVersion = appVersion
  }
}

/// An entry read back from the log: the record, its place, and its link in the hash chain.
public struct LogEntry: Sendable, Equatable {
  /// The entry's position, gapless from 1.
  public let seq: Int64
  public let record: LogRecord
  /// The chain hash before this entry, and after it.
  public let previousHash: [UInt8]
  public let hash: [UInt8]
  /// The random salt inside the sealed payload; it keeps the chain hash from revealing the
  /// record to someone who guesses it, and it is part of an audit export.
  let salt: [UInt8]
}

/// The outcome of appending one record.
public struct Appended: Sendable, Equatable {
  /// The entry in the log: the new one, or, for a duplicate `(client, cseq)`, the original.
  public let entry: LogEntry
  /// True when the record was a duplicate and nothing was written for it.
  public let isDuplicate: Bool
}

extension Date {
  /// Whole milliseconds since 1970, the precision the log keeps (``JSONDate``'s rule, so that
  /// an entry's time and its action's are the same count).
  var milliseconds: Int64 { JSONDate.milliseconds(self) ?? 0 }

  init(milliseconds: Int64) {
    self = JSONDate.date(milliseconds: milliseconds)
  }
}
