import ConcordWire

/// How the daemon's log stands against what this home has witnessed of it: nil when it carries
/// on from there, otherwise the way it does not, which stops the outbox from syncing until a
/// person decides.
///
/// The daemon's log lives in files that someone with access to the home could cut short or put
/// back from an older copy; the chain and the checkpoint file can be rolled back with it. The
/// clients cannot: every window and command of a home remembers the highest `(log id, seq)` it
/// was shown or answered with (``Outbox/witnessed()``), so a daemon whose log ends before that
/// is caught by the first client to meet it — clients are witnesses, as in Replicache.
///
/// ```swift
/// let seen = LogPosition(logID: "3d1f…", seq: 1_220)
/// LogDivergence.between(witnessed: seen, daemon: LogPosition(logID: "3d1f…", seq: 1_204))
/// // .rolledBack(logEndsAt: 1204, seen: 1220)
/// ```
public enum LogDivergence: Sendable, Equatable, CustomStringConvertible {
  /// Another log than the one this home last synced with (another log id): a new home's log,
  /// or another machine's.
  case replaced(known: String, now: String)
  /// The same log, ending before an entry this home has seen: rolled back, or restored from an
  /// older copy.
  case rolledBack(logEndsAt: Int64, seen: Int64)

  /// How a daemon whose log is at `daemon` (its welcome) stands against `witnessed`.
  public static func between(witnessed: LogPosition?, daemon: LogPosition) -> LogDivergence? {
    guard let witnessed else { return nil }
    if witnessed.logID != daemon.logID { return .replaced(known: witnessed.logID, now: daemon.logID) }
    if daemon.seq < witnessed.seq { return .rolledBack(logEndsAt: daemon.seq, seen: witnessed.seq) }
    return nil
  }

  /// What happened, in the words a person reads.
  public var description: String {
    switch self {
    case let .replaced(known, now):
      "the daemon's log (\(now.prefix(8))…) is not the one this outbox last synced with (\(known.prefix(8))…)"
    case let .rolledBack(logEndsAt, seen):
      "the daemon's log ends at \(logEndsAt.grouped) but this home has seen \(seen.grouped): the log was rolled back or restored from an older copy"
    }
  }
}
