import Foundation

/// What a window (or any peer) sends the daemon: one JSON object a line, named by its `type`.
///
/// ```json
/// {"type":"hello","protocol":1}
/// {"type":"attach","scope":"card:42"}
/// {"type":"send","scope":"card:42","client":"w-7f3a","cseq":12,"action":{"rename":{"title":"Fix login"}}}
/// ```
public enum ClientMessage: Sendable, Equatable {
  /// The first message: the protocol version the peer speaks, optionally its client id, and
  /// whether it is a window a person has open (`presence`, the default) or a command such as
  /// `concord send`, whose attaches the app is not told of: presence records people's windows,
  /// not one-shot commands. A window at the end of a slow link (over SSH) may ask for its
  /// scopes' changes at most once per `updateIntervalMilliseconds`
  /// (``WireLimits/maximumUpdateIntervalMilliseconds`` at most; 0, the default, for every
  /// change as it is committed): changes in between are merged into the next update.
  case hello(protocolVersion: Int, client: String?, presence: Bool = true, updateIntervalMilliseconds: Int = 0)
  /// Start receiving a scope: answered with a `snapshot`, then `update`s. `since` is the log id
  /// and seq a reconnecting window last saw.
  case attach(scope: String, since: LogPosition?)
  /// Stop receiving a scope.
  case detach(scope: String)
  /// An action of an attached scope, numbered by the client: `(client, cseq)` is what makes a
  /// retry harmless. `typedAt` is when a person typed an action that waited offline: the app
  /// sees that time (the daemon's own, if it is later than now); the log entry keeps the time
  /// the daemon took it.
  case send(scope: String, action: JSONValue, client: String, cseq: Int64, typedAt: Date? = nil)
  /// Asks for a `pong`.
  case ping
  /// Answers the daemon's `ping`.
  case pong
  /// Asks for the daemon's `status`: its pid, uptime, seq and attached windows.
  case status
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
  // One reading and one writing of the wire form, shared with the daemon's fast path
  // (`init(json:)`, `jsonValue`): Codable goes through them.
  public init(from decoder: any Decoder) throws {
    try self.init(json: try JSONValue(from: decoder))
  }

  public func encode(to encoder: any Encoder) throws {
    try jsonValue.encode(to: encoder)
  }

  /// The message as the JSON object it is on the wire.
  public var jsonValue: JSONValue {
    switch self {
    case let .hello(version, client, presence, interval):
      var object: [String: JSONValue] = ["type": "hello", "protocol": .integer(Int64(version))]
      if let client { object["client"] = .string(client) }
      if !presence { object["presence"] = false }
      if interval != 0 { object["update_interval_ms"] = .integer(Int64(interval)) }
      return .object(object)
    case let .attach(scope, since):
      var object: [String: JSONValue] = ["type": "attach", "scope": .string(scope)]
      if let since { object["since"] = ["log_id": .string(since.logID), "seq": .integer(since.seq)] }
      return .object(object)
    case let .detach(scope):
      return ["type": "detach", "scope": .string(scope)]
    case let .send(scope, action, client, cseq, typedAt):
      var object: [String: JSONValue] = [
        "type": "send", "scope": .string(scope), "action": action, "client": .string(client), "cseq": .integer(cseq),
      ]
      if let typedAt, let text = try? JSONDate.text(typedAt) { object["typed_at"] = .string(text) }
      return .object(object)
    case .ping: return ["type": "ping"]
    case .pong: return ["type": "pong"]
    case .status: return ["type": "status"]
    }
  }

  /// The message as one line of the wire, newline included.
  public var line: String { jsonValue.jsonText + "\n" }
}
