/// What a person can do when the daemon's log does not carry on from what this home has seen:
/// the commands that decide, named the same way by every command and window that stops on it.
extension LogDivergence {
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
