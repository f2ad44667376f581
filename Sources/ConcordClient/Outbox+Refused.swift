import ConcordLog
import ConcordWire
import Foundation
import GRDB

/// An action queued in the outbox that the daemon refused when it was resent: the person who
/// typed it may have long moved on, so every window of the home shows it, with the daemon's
/// reason, until someone dismisses it.
///
/// ```swift
/// for refused in try outbox.refusedOnResend() {
///   print("\(refused.scope): \(refused.text) — \(refused.reason)")
/// }
/// ```
public struct RefusedAction: Sendable, Equatable {
  /// The action as it waited in the outbox.
  public var queued: QueuedAction
  /// Why the daemon refused it, in the app's words.
  public var reason: String

  /// An action refused when resent, with the daemon's reason.
  ///
  /// - Parameters:
  ///   - queued: the action as it waited in the outbox.
  ///   - reason: why the daemon refused it.
  public init(queued: QueuedAction, reason: String) {
    self.queued = queued
    self.reason = reason
  }

  /// The action's number in this home's outbox: what dismissing it names
  /// (``Outbox/dismissRefused(upTo:)``).
  public var cseq: Int64 { queued.cseq }
  /// The scope the action was sent to (`board`, `card:42`).
  public var scope: String { queued.scope }
  /// How a person names it: as typed, else as the action's JSON.
  public var text: String { queued.typed ?? queued.action.jsonText }
}

extension Outbox {
  /// The actions refused when resent and not dismissed yet, oldest first; at most
  /// ``refusedLimit``.
  ///
  /// ```swift
  /// for refused in try outbox.refusedOnResend() { print(refused.scope, refused.reason) }
  /// try outbox.dismissRefused()
  /// ```
  public func refusedOnResend() throws(ClientError) -> [RefusedAction] {
    try reading { db in
      try Row.fetchAll(db, sql: "SELECT cseq, sealed FROM refused ORDER BY cseq").map { row in
        let cseq: Int64 = row["cseq"]
        guard let fields = openObject(row["sealed"], place: Self.refusedPlace(cseq)),
          case let .string(reason)? = fields["reason"], let millis = fields["queued_at"]?.int64,
          let queued = QueuedAction(cseq: cseq, queuedAt: Date(timeIntervalSince1970: Double(millis) / 1000), fields: fields)
        else { throw ClientError.local("refused action \(cseq) does not open with this key") }
        return RefusedAction(queued: queued, reason: reason)
      }
    }
  }

  /// Forgets the refused actions up to `cseq` (all of them when nil): a person has read them.
  public func dismissRefused(upTo cseq: Int64? = nil) throws(ClientError) {
    try access(synced: false) { db in
      try db.execute(sql: "DELETE FROM refused WHERE cseq <= ?", arguments: [cseq ?? Int64.max])
    }
  }

  /// How many refused actions are kept; the oldest go first.
  public static let refusedLimit = 100

  func sealRefused(_ action: QueuedAction, _ reason: String) -> Data {
    var fields = action.fields
    fields["reason"] = .string(reason)
    fields["queued_at"] = .integer(Int64((action.queuedAt.timeIntervalSince1970 * 1000).rounded()))
    let object = JSONValue.object(fields)
    return Data(sealer.seal(Array(object.jsonText.utf8), associatedData: Self.refusedPlace(action.cseq)))
  }

  func keepRefused(cseq: Int64, sealed: Data, in db: Database) throws {
    try db.execute(sql: "INSERT OR REPLACE INTO refused (cseq, sealed) VALUES (?, ?)", arguments: [cseq, sealed])
    try db.execute(
      sql: "DELETE FROM refused WHERE cseq NOT IN (SELECT cseq FROM refused ORDER BY cseq DESC LIMIT ?)",
      arguments: [Self.refusedLimit])
  }

  private static func refusedPlace(_ cseq: Int64) -> [UInt8] { Array("refused/\(cseq)".utf8) }
}
