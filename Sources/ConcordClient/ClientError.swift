import ConcordPlatform
import ConcordWire

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
  /// What was given cannot name what it should (a host that is no `ssh://` URL).
  case usage(String)
  /// The daemon on another machine could not be reached: the network, or no daemon runs there.
  /// The reason says what to do.
  case remoteUnreachable(String)
  /// The other machine turned the connection away (its host key changed, the login was refused,
  /// `concord` is missing there). The reason says what to do.
  case remoteRefused(String)

  /// The line a command prints: an unreachable daemon also says how to start it.
  public var description: String {
    switch self {
    case let .unreachable(reason): "daemon not running (\(reason)): start it with `\(ProgramName.current) daemon start`"
    case .closed: "the daemon closed the connection"
    case let .protocolError(reason): "the daemon's answer was not understood: \(reason)"
    case let .local(reason): reason
    case let .usage(reason): reason
    case let .remoteUnreachable(reason): reason
    case let .remoteRefused(reason): reason
    }
  }
}

extension ClientError {
  /// A socket's failure as the client tells it.
  public init(_ error: UnixSocketError) {
    switch error {
    case let .unreachable(reason): self = .unreachable(reason)
    case let .local(reason): self = .local(reason)
    }
  }
}
