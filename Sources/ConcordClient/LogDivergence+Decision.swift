/// Adds what a person can do about a divergence, in the words every command and window shows.
extension LogDivergence {
  /// What a person can do when the daemon's log does not carry on from what this home has seen:
  /// the commands that decide (named with ``ProgramName/current``), said the same way by every
  /// command and window that stops on it.
  ///
  /// ```swift
  /// LogDivergence.rolledBack(logEndsAt: 1204, seen: 1220).decision
  /// // "`concord outbox sync --accept-rollback` accepts the daemon's log as it is and sends …"
  /// ```
  public var decision: String {
    let program = ProgramName.current
    switch self {
    case .replaced:
      return "`\(program) outbox sync --force` sends the queue to this log anyway, `\(program) outbox drop --all` forgets it"
    case .rolledBack:
      // Dropping the queue decides nothing here: nothing is sent to this daemon, queued or not,
      // until its log is accepted.
      return "`\(program) outbox sync --accept-rollback` accepts the daemon's log as it is and sends the queue (`\(program) outbox drop` first takes out what should not go)"
    }
  }
}
