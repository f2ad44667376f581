import ConcordClient

/// What a person can do when the daemon's log does not carry on from what this home has seen:
/// the commands that decide, named the same way by every command that stops on it.
extension LogDivergence {
  var decision: String {
    switch self {
    case .replaced:
      "`concord outbox sync --force` sends the queue to this log anyway, `concord outbox drop --all` forgets it"
    case .rolledBack:
      // Dropping the queue decides nothing here: nothing is sent to this daemon, queued or not,
      // until its log is accepted.
      "`concord outbox sync --accept-rollback` accepts the daemon's log as it is and sends the queue (`concord outbox drop` first takes out what should not go)"
    }
  }
}
