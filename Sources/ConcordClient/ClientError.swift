/// What can go wrong talking to the daemon, in words a person can act on.
public enum ClientError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No daemon answers on the socket.
  case unreachable(String)
  /// The daemon closed the connection.
  case closed
  /// The daemon said something this client does not understand, or refused the handshake.
  case protocolError(String)
  /// A local file (the outbox) could not be used.
  case local(String)

  public var description: String {
    switch self {
    case let .unreachable(reason): "daemon not running (\(reason)): start it with `concord daemon start`"
    case .closed: "the daemon closed the connection"
    case let .protocolError(reason): "the daemon's answer was not understood: \(reason)"
    case let .local(reason): reason
    }
  }
}

/// Exit codes of the `concord` command line, as the README fixes them.
public enum ConcordExitCode: Int32, Sendable {
  case success = 0
  case failure = 1
  case usage = 2
  case daemonUnreachable = 3
}
