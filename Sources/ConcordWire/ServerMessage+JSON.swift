extension ServerMessage {
  /// The message as the JSON object it is on the wire.
  ///
  /// The daemon writes every message through this and ``JSONValue/jsonText`` (sorted keys,
  /// compact), not through JSONEncoder: it is the daemon's most frequent work after reducing.
  public var jsonValue: JSONValue {
    var object: [String: JSONValue]
    switch self {
    case let .welcome(welcome):
      object = [
        "protocol": .integer(Int64(welcome.protocolVersion)), "log_id": .string(welcome.logID),
        "user": .string(welcome.user), "seq": .integer(welcome.seq), "app": .string(welcome.app),
        "scopes": .array(welcome.scopes.map(\.jsonValue)),
      ]
    case let .snapshot(scope, seq, state, logReplaced):
      object = ["scope": .string(scope), "seq": .integer(seq), "state": state]
      if logReplaced { object["log_replaced"] = true }
    case let .update(scope, seq, change):
      object = ["scope": .string(scope), "seq": .integer(seq)]
      switch change {
      case let .diff(diff): object["diff"] = diff.jsonValue
      case let .reset(state): object["reset"] = state
      }
    case let .ack(client, cseq, seq):
      object = ["client": .string(client), "cseq": .integer(cseq), "seq": .integer(seq)]
    case let .refused(client, cseq, seq, reason):
      object = ["client": .string(client), "cseq": .integer(cseq), "reason": .string(WireLimits.bounded(reason))]
      if let seq { object["seq"] = .integer(seq) }
    case let .detached(scope):
      object = ["scope": .string(scope)]
    case .ping, .pong:
      object = [:]
    case let .error(code, message, cseq):
      object = ["code": .string(code.rawValue), "message": .string(WireLimits.bounded(message))]
      if let cseq { object["cseq"] = .integer(cseq) }
    case let .status(status):
      object = [
        "pid": .integer(Int64(status.pid)), "started_at": .number(status.startedAt), "seq": .integer(status.seq),
        "windows": .integer(Int64(status.windows)),
        "scopes": .object(status.scopes.mapValues { .integer(Int64($0)) }),
      ]
    }
    object["type"] = .string(typeName)
    return .object(object)
  }

  /// The message's `type` on the wire.
  public var typeName: String {
    switch self {
    case .welcome: "welcome"
    case .snapshot: "snapshot"
    case .update: "update"
    case .ack: "ack"
    case .refused: "refused"
    case .detached: "detached"
    case .ping: "ping"
    case .pong: "pong"
    case .error: "error"
    case .status: "status"
    }
  }

  /// The seq of the daemon's log the message speaks of, when it names one: what a client keeps
  /// as the newest position it was shown.
  public var seq: Int64? {
    switch self {
    case let .welcome(welcome): welcome.seq
    case let .snapshot(_, seq, _, _), let .update(_, seq, _), let .ack(_, _, seq): seq
    case let .refused(_, _, seq, _): seq
    case let .status(status): status.seq
    case .detached, .ping, .pong, .error: nil
    }
  }

  /// The message as one line of the wire, newline included.
  public var line: String {
    var text = ""
    // The two lines every durable action causes, an ack and an update, are written straight,
    // keys in the order `jsonValue`'s text sorts them, without building the object first
    // (callgrind: 39 k instructions an ack through `jsonValue`, 19 k an update's frame).
    switch self {
    case let .ack(client, cseq, seq):
      text.reserveCapacity(48 + client.utf8.count)
      text += #"{"client":"#
      JSONValue.writeString(client, to: &text)
      text += #","cseq":"#
      JSONValue.integer(cseq).write(to: &text)
      text += #","seq":"#
      JSONValue.integer(seq).write(to: &text)
      text += #","type":"ack"}"# + "\n"
    case let .update(scope, seq, .diff(diff)):
      text = Self.updateLine(scope: scope, seq: seq, change: "diff", value: diff.jsonValue)
    case let .update(scope, seq, .reset(state)):
      text = Self.updateLine(scope: scope, seq: seq, change: "reset", value: state)
    default:
      jsonValue.write(to: &text)
      text += "\n"
    }
    return text
  }

  /// The `update` line that brings a window from `old` to `new` (whose text is `newBytes`
  /// long): the diff when its text is shorter, else the whole state; nil when nothing changed.
  /// The diff's JSON is built once: counted, and written only when it is the one sent.
  ///
  /// ```swift
  /// ServerMessage.updateLine(scope: "counter", seq: 7, from: ["count": 1], to: ["count": 2], newBytes: 11)
  /// // {"reset":{"count":2},"scope":"counter","seq":7,"type":"update"}
  /// ```
  public static func updateLine(scope: String, seq: Int64, from old: JSONValue, to new: JSONValue, newBytes: Int)
    -> String?
  {
    let diff = StateDiff.between(old, new)
    if diff.isEmpty { return nil }
    let diffJSON = diff.jsonValue
    return diffJSON.jsonTextByteCount < newBytes
      ? updateLine(scope: scope, seq: seq, change: "diff", value: diffJSON)
      : updateLine(scope: scope, seq: seq, change: "reset", value: new)
  }

  /// An update whose change (`diff` or `reset`, both sorted before the other keys) is `value`.
  private static func updateLine(scope: String, seq: Int64, change: String, value: JSONValue) -> String {
    var text = "{\"" + change + "\":"
    value.write(to: &text)
    text += #","scope":"#
    JSONValue.writeString(scope, to: &text)
    text += #","seq":"#
    JSONValue.integer(seq).write(to: &text)
    text += #","type":"update"}"# + "\n"
    return text
  }
}
