import Foundation

extension ClientMessage {
  /// Reads a message from one line of the wire, without its newline.
  ///
  /// This is the daemon's path for every line a peer sends: parsed by ``JSONParser`` and read
  /// field by field, with an error a person can act on (`the field "scope" is missing`).
  ///
  /// ```swift
  /// let message = try ClientMessage(line: Array(#"{"type":"ping"}"#.utf8))   // .ping
  /// ```
  public init(line: some Collection<UInt8>) throws(WireError) {
    let json: JSONValue
    do {
      json = try JSONParser.parse(line)
    } catch {
      throw .badMessage("the text is not valid JSON (\(error))")
    }
    try self.init(json: json)
  }

  /// Reads a message from its JSON form.
  ///
  /// Every text a peer names a thing by, or puts in an action, is taken in Normalization Form C
  /// (``Swift/String/nfc``): from here on, a text is the same bytes wherever it is compared,
  /// stored or sent. Client ids are ASCII by rule (``ClientID``), checked by the daemon.
  public init(json: JSONValue) throws(WireError) {
    guard case let .object(fields) = json else { throw .badMessage("a message is a JSON object") }
    let message = Fields(fields)
    let type = try message.string("type")
    switch type {
    case "hello":
      self = .hello(
        protocolVersion: Int(clamping: try message.integer("protocol")), client: try message.optionalString("client"),
        presence: try message.optionalBool("presence") ?? true,
        updateIntervalMilliseconds: Int(
          try message.optionalInteger("update_interval_ms", in: 0...Int64(WireLimits.maximumUpdateIntervalMilliseconds)) ?? 0))
    case "attach":
      var since: LogPosition?
      if let position = fields["since"], position != .null {
        guard case let .object(positionFields) = position else { throw .badMessage("expected an object (at since)") }
        let reader = Fields(positionFields, at: "since.")
        since = LogPosition(logID: try reader.string("log_id"), seq: try reader.integer("seq"))
      }
      self = .attach(scope: try message.scope(), since: since)
    case "detach":
      self = .detach(scope: try message.scope())
    case "send":
      guard let action = fields["action"] else { throw .badMessage(#"the field "action" is missing"#) }
      // The client id's rule (``ClientID``) is the daemon's to apply: its error names the cseq.
      var typedAt: Date?
      if let typed = fields["typed_at"] {
        guard case let .string(text) = typed, let time = try? JSONDate.date(from: text) else {
          throw .badMessage(#"the field "typed_at" is not a time such as 2026-12-01T09:30:00.000Z"#)
        }
        typedAt = time
      }
      self = .send(
        scope: try message.scope(), action: action.nfc, client: try message.string("client"),
        cseq: try message.integer("cseq"), typedAt: typedAt)
    case "ping": self = .ping
    case "pong": self = .pong
    case "status": self = .status
    default: throw .badMessage("unknown message type \"\(type)\"")
    }
  }
}

/// The fields of a message object, read with errors that name the field.
struct Fields {
  let fields: [String: JSONValue]
  let prefix: String

  init(_ fields: [String: JSONValue], at prefix: String = "") {
    self.fields = fields
    self.prefix = prefix
  }

  func string(_ key: String) throws(WireError) -> String {
    guard let value = fields[key], value != .null else { throw .badMessage("the field \"\(prefix)\(key)\" is missing") }
    guard case let .string(string) = value else { throw .badMessage("expected a string (at \(prefix)\(key))") }
    return string
  }

  func optionalString(_ key: String) throws(WireError) -> String? {
    guard let value = fields[key], value != .null else { return nil }
    return try string(key)
  }

  func optionalBool(_ key: String) throws(WireError) -> Bool? {
    guard let value = fields[key], value != .null else { return nil }
    guard case let .bool(bool) = value else { throw .badMessage("expected true or false (at \(prefix)\(key))") }
    return bool
  }

  /// The `scope` member, in NFC, at most ``WireLimits/maximumScopeBytes`` long.
  func scope() throws(WireError) -> String {
    let scope = try string("scope").nfc
    guard scope.utf8.count <= WireLimits.maximumScopeBytes else {
      throw .badMessage("a scope name is at most \(WireLimits.maximumScopeBytes) bytes; this one is \(scope.utf8.count)")
    }
    return scope
  }

  /// An integer member that may be absent (nil), and must lie in `range` when it is there.
  func optionalInteger(_ key: String, in range: ClosedRange<Int64>) throws(WireError) -> Int64? {
    guard let value = fields[key], value != .null else { return nil }
    let integer = try integer(key)
    guard range.contains(integer) else {
      throw .badMessage("expected an integer from \(range.lowerBound) to \(range.upperBound) (at \(prefix)\(key))")
    }
    return integer
  }

  func integer(_ key: String) throws(WireError) -> Int64 {
    guard let value = fields[key], value != .null else { throw .badMessage("the field \"\(prefix)\(key)\" is missing") }
    guard let integer = value.int64 else {
      throw .badMessage("expected an integer from -2^63 to 2^63-1 written in digits, without a fraction or exponent (at \(prefix)\(key))")
    }
    return integer
  }
}
