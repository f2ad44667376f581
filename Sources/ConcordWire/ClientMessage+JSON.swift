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
  public init(json: JSONValue) throws(WireError) {
    guard case let .object(fields) = json else { throw .badMessage("a message is a JSON object") }
    let message = Fields(fields)
    let type = try message.string("type")
    switch type {
    case "hello":
      self = .hello(protocolVersion: Int(try message.integer("protocol")), client: try message.optionalString("client"))
    case "attach":
      var since: LogPosition?
      if let position = fields["since"], position != .null {
        guard case let .object(positionFields) = position else { throw .badMessage("expected an object (at since)") }
        let reader = Fields(positionFields, at: "since.")
        since = LogPosition(logID: try reader.string("log_id"), seq: try reader.integer("seq"))
      }
      self = .attach(scope: try message.string("scope"), since: since)
    case "detach":
      self = .detach(scope: try message.string("scope"))
    case "send":
      guard let action = fields["action"] else { throw .badMessage(#"the field "action" is missing"#) }
      self = .send(
        scope: try message.string("scope"), action: action, client: try message.string("client"),
        cseq: try message.integer("cseq"))
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

  func integer(_ key: String) throws(WireError) -> Int64 {
    guard let value = fields[key], value != .null else { throw .badMessage("the field \"\(prefix)\(key)\" is missing") }
    guard case let .number(number) = value, let integer = JSONValue.exactInteger(number) else {
      throw .badMessage("expected an integer (at \(prefix)\(key))")
    }
    return integer
  }
}
