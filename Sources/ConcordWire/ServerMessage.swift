/// What the daemon sends a window: one JSON object a line, named by its `type`.
///
/// ```json
/// {"app":"Workspace","log_id":"9f2c…","protocol":1,"scopes":[{"name":"board","parameterized":false},{"name":"card","parameterized":true}],"seq":17,"type":"welcome","user":"alice"}
/// {"scope":"card:42","seq":17,"state":{"title":"Fix login"},"type":"snapshot"}
/// {"client":"w-7f3a","cseq":12,"seq":18,"type":"ack"}
/// {"diff":[{"op":"set","path":["title"],"value":"Fix the login"}],"scope":"card:42","seq":18,"type":"update"}
/// ```
public enum ServerMessage: Sendable, Equatable {
  /// The answer to `hello`.
  case welcome(Welcome)
  /// The whole state of a scope at a seq: the answer to `attach`. `logReplaced` is set when the
  /// window said it last saw another log: its history is not this daemon's.
  case snapshot(scope: String, seq: Int64, state: JSONValue, logReplaced: Bool)
  /// A scope's state changed: the diff from the last state this window was sent, or the whole
  /// state (`reset`) when a diff would not be smaller.
  case update(scope: String, seq: Int64, change: Change)
  /// The action `(client, cseq)` is durable in the log as `seq`.
  case ack(client: String, cseq: Int64, seq: Int64)
  /// The reducer refused the action; the state did not change. `seq` is where the refusal is
  /// recorded in the log.
  case refused(client: String, cseq: Int64, seq: Int64?, reason: String)
  /// The answer to `detach`.
  case detached(scope: String)
  case ping
  case pong
  /// Something the peer sent could not be taken; `code` is stable, `message` is for people.
  case error(code: ErrorCode, message: String, cseq: Int64?)
  /// The answer to `status`.
  case status(DaemonStatus)

  /// How the daemon is doing: what `concord daemon status` prints.
  public struct DaemonStatus: Sendable, Equatable, Codable {
    public var pid: Int32
    /// Seconds since 1970.
    public var startedAt: Double
    public var seq: Int64
    /// Connections that said hello.
    public var windows: Int
    /// Windows per attached scope.
    public var scopes: [String: Int]

    public init(pid: Int32, startedAt: Double, seq: Int64, windows: Int, scopes: [String: Int]) {
      self.pid = pid
      self.startedAt = startedAt
      self.seq = seq
      self.windows = windows
      self.scopes = scopes
    }

    enum CodingKeys: String, CodingKey {
      case pid, seq, windows, scopes
      case startedAt = "started_at"
    }
  }

  /// How an update carries the new state.
  public enum Change: Sendable, Equatable {
    case diff(StateDiff)
    case reset(JSONValue)
  }

  /// The answer to `hello`: who the daemon is and what it offers.
  public struct Welcome: Sendable, Equatable, Codable {
    public var protocolVersion: Int
    public var logID: String
    /// The peer's account, as the kernel reports it: the name actions are recorded under.
    public var user: String
    /// The newest seq in the log.
    public var seq: Int64
    public var app: String
    public var scopes: [ScopeInfo]

    public init(protocolVersion: Int, logID: String, user: String, seq: Int64, app: String, scopes: [ScopeInfo]) {
      self.protocolVersion = protocolVersion
      self.logID = logID
      self.user = user
      self.seq = seq
      self.app = app
      self.scopes = scopes
    }

    enum CodingKeys: String, CodingKey {
      case protocolVersion = "protocol"
      case logID = "log_id"
      case user, seq, app, scopes
    }
  }

  /// A scope a window may attach to; a parameterized one is named `NAME:PARAMETER`.
  public struct ScopeInfo: Sendable, Equatable, Codable {
    public var name: String
    public var parameterized: Bool
    /// How people name it (`board`, `card:ID`), as help and errors spell it; absent from a
    /// daemon that does not say.
    public var usage: String?

    public init(name: String, parameterized: Bool, usage: String? = nil) {
      self.name = name
      self.parameterized = parameterized
      self.usage = usage
    }

    var jsonValue: JSONValue {
      var object: [String: JSONValue] = ["name": .string(name), "parameterized": .bool(parameterized)]
      if let usage { object["usage"] = .string(usage) }
      return .object(object)
    }
  }

  /// The stable codes of `error` messages.
  public enum ErrorCode: String, Sendable, Codable, CaseIterable {
    /// The line was not a JSON object, or not a message this protocol knows.
    case badMessage = "bad-message"
    /// The line was longer than ``WireLimits/maximumMessageBytes``.
    case tooLong = "too-long"
    /// The peer did not say `hello` first, or spoke another protocol version.
    case handshake
    /// No scope of that name, or no element for that parameter.
    case unknownScope = "unknown-scope"
    /// An action for a scope the window is not attached to.
    case notAttached = "not-attached"
    /// The action did not decode as one of the scope's actions.
    case badAction = "bad-action"
    /// The window has fallen too far behind, or is being disconnected.
    case overloaded
    /// The log could not be written; nothing was acknowledged.
    case unavailable
  }
}

extension ServerMessage: Codable {
  enum CodingKeys: String, CodingKey {
    case type, scope, seq, state, diff, reset, client, cseq, reason, code, message
    case logReplaced = "log_replaced"
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let type = try container.decode(String.self, forKey: .type)
    switch type {
    case "welcome":
      self = .welcome(try Welcome(from: decoder))
    case "snapshot":
      self = .snapshot(
        scope: try container.decode(String.self, forKey: .scope),
        seq: try container.decode(Int64.self, forKey: .seq),
        state: try container.decode(JSONValue.self, forKey: .state),
        logReplaced: try container.decodeIfPresent(Bool.self, forKey: .logReplaced) ?? false)
    case "update":
      let change: Change
      // `contains`, not `decodeIfPresent`: a reset to `null` (an element that left the state)
      // is a reset all the same.
      if container.contains(.reset) {
        change = .reset(try container.decode(JSONValue.self, forKey: .reset))
      } else {
        change = .diff(try container.decode(StateDiff.self, forKey: .diff))
      }
      self = .update(
        scope: try container.decode(String.self, forKey: .scope),
        seq: try container.decode(Int64.self, forKey: .seq), change: change)
    case "ack":
      self = .ack(
        client: try container.decode(String.self, forKey: .client),
        cseq: try container.decode(Int64.self, forKey: .cseq),
        seq: try container.decode(Int64.self, forKey: .seq))
    case "refused":
      self = .refused(
        client: try container.decode(String.self, forKey: .client),
        cseq: try container.decode(Int64.self, forKey: .cseq),
        seq: try container.decodeIfPresent(Int64.self, forKey: .seq),
        reason: try container.decode(String.self, forKey: .reason))
    case "detached":
      self = .detached(scope: try container.decode(String.self, forKey: .scope))
    case "ping": self = .ping
    case "pong": self = .pong
    case "status": self = .status(try DaemonStatus(from: decoder))
    case "error":
      self = .error(
        code: try container.decode(ErrorCode.self, forKey: .code),
        message: try container.decode(String.self, forKey: .message),
        cseq: try container.decodeIfPresent(Int64.self, forKey: .cseq))
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: container, debugDescription: "unknown message type \"\(type)\"")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    try jsonValue.encode(to: encoder)
  }
}
