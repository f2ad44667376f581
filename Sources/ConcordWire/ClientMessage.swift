/// What a window (or any peer) sends the daemon: one JSON object a line, named by its `type`.
///
/// ```json
/// {"type":"hello","protocol":1}
/// {"type":"attach","scope":"card:42"}
/// {"type":"send","scope":"card:42","client":"w-7f3a","cseq":12,"action":{"rename":{"title":"Fix login"}}}
/// ```
public enum ClientMessage: Sendable, Equatable {
  /// The first message: the protocol version the peer speaks, and optionally its client id.
  case hello(protocolVersion: Int, client: String?)
  /// Start receiving a scope: answered with a `snapshot`, then `update`s. `since` is the log id
  /// and seq a reconnecting window last saw.
  case attach(scope: String, since: LogPosition?)
  /// Stop receiving a scope.
  case detach(scope: String)
  /// An action of an attached scope, numbered by the client: `(client, cseq)` is what makes a
  /// retry harmless.
  case send(scope: String, action: JSONValue, client: String, cseq: Int64)
  /// Asks for a `pong`.
  case ping
  /// Answers the daemon's `ping`.
  case pong
}

/// A place in one particular log: a window remembers it to resume where it was.
public struct LogPosition: Sendable, Equatable, Codable {
  public var logID: String
  public var seq: Int64

  public init(logID: String, seq: Int64) {
    self.logID = logID
    self.seq = seq
  }

  enum CodingKeys: String, CodingKey {
    case logID = "log_id"
    case seq
  }
}

extension ClientMessage: Codable {
  enum CodingKeys: String, CodingKey {
    case type, `protocol`, client, scope, since, action, cseq
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let type = try container.decode(String.self, forKey: .type)
    switch type {
    case "hello":
      self = .hello(
        protocolVersion: try container.decode(Int.self, forKey: .protocol),
        client: try container.decodeIfPresent(String.self, forKey: .client))
    case "attach":
      self = .attach(
        scope: try container.decode(String.self, forKey: .scope),
        since: try container.decodeIfPresent(LogPosition.self, forKey: .since))
    case "detach":
      self = .detach(scope: try container.decode(String.self, forKey: .scope))
    case "send":
      self = .send(
        scope: try container.decode(String.self, forKey: .scope),
        action: try container.decode(JSONValue.self, forKey: .action),
        client: try container.decode(String.self, forKey: .client),
        cseq: try container.decode(Int64.self, forKey: .cseq))
    case "ping": self = .ping
    case "pong": self = .pong
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: container, debugDescription: "unknown message type \"\(type)\"")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case let .hello(version, client):
      try container.encode("hello", forKey: .type)
      try container.encode(version, forKey: .protocol)
      try container.encodeIfPresent(client, forKey: .client)
    case let .attach(scope, since):
      try container.encode("attach", forKey: .type)
      try container.encode(scope, forKey: .scope)
      try container.encodeIfPresent(since, forKey: .since)
    case let .detach(scope):
      try container.encode("detach", forKey: .type)
      try container.encode(scope, forKey: .scope)
    case let .send(scope, action, client, cseq):
      try container.encode("send", forKey: .type)
      try container.encode(scope, forKey: .scope)
      try container.encode(action, forKey: .action)
      try container.encode(client, forKey: .client)
      try container.encode(cseq, forKey: .cseq)
    case .ping:
      try container.encode("ping", forKey: .type)
    case .pong:
      try container.encode("pong", forKey: .type)
    }
  }
}
