/// What can go wrong reading the wire.
public enum WireError: Error, Sendable, Equatable, CustomStringConvertible {
  case lineTooLong
  case badMessage(String)

  public var description: String {
    switch self {
    case .lineTooLong: "a line is longer than \(WireLimits.maximumMessageBytes) bytes"
    case let .badMessage(reason): reason
    }
  }
}
