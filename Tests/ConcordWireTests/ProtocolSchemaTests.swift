import ConcordWire
import Foundation
import Testing

/// schema/wire-protocol.schema.json against the Swift messages: every case of ClientMessage and
/// ServerMessage has exactly one entry there, with the keys its encoder writes, and the error
/// codes are the same on both sides.
@Suite struct ProtocolSchemaTests {
  @Test func everyClientMessageHasItsEntryInTheSchema() throws {
    let lines = try Self.clientMessages.map { (type: Self.wireType($0), line: try WireCoding().line(for: $0)) }
    try checkEntries(of: "ClientMessage", against: lines)
  }

  @Test func everyServerMessageHasItsEntryInTheSchema() throws {
    let lines = try Self.serverMessages.map { (type: Self.wireType($0), line: try WireCoding().line(for: $0)) }
    try checkEntries(of: "ServerMessage", against: lines)
  }

  @Test func theErrorCodesAreExactlyTheSchemasEnum() throws {
    let definitions = try Self.definitions()
    let codes = try #require((definitions["ErrorCode"] as? [String: Any])?["enum"] as? [String])
    #expect(Set(codes) == Set(ServerMessage.ErrorCode.allCases.map(\.rawValue)))
    #expect(codes.count == ServerMessage.ErrorCode.allCases.count, "a code is listed twice")
    let error = try #require(try Self.entries(of: "ServerMessage", in: definitions).first { Self.typeConst($0) == "error" })
    #expect(((error["properties"] as? [String: Any])?["code"] as? [String: Any])?["$ref"] as? String == "#/$defs/ErrorCode")
  }

  // MARK: - Examples of every case

  static let clientMessages: [ClientMessage] = [
    .hello(protocolVersion: WireProtocol.version, client: nil),
    .hello(protocolVersion: WireProtocol.version, client: "w-7f3a"),
    .hello(protocolVersion: WireProtocol.version, client: nil, presence: false),
    .hello(protocolVersion: WireProtocol.version, client: nil, updateIntervalMilliseconds: 20),
    .attach(scope: "board", since: nil),
    .attach(scope: "card:42", since: LogPosition(logID: "9f2c00112233445566778899aabbccdd", seq: 17)),
    .detach(scope: "card:42"),
    .send(scope: "card:42", action: ["rename": ["title": "Fix\nlogin"]], client: "w-7f3a", cseq: 12),
    .ping,
    .pong,
    .status,
  ]

  static let serverMessages: [ServerMessage] = {
    var messages: [ServerMessage] = [
      .welcome(
        .init(
          protocolVersion: WireProtocol.version, logID: "9f2c00112233445566778899aabbccdd", user: "alice", seq: 17,
          app: "Sample", scopes: [.init(name: "board", parameterized: false), .init(name: "card", parameterized: true, usage: "card:ID")])),
      .snapshot(scope: "card:42", seq: 17, state: ["title": "Fix\nlogin", "cards": [["id": 1]]], logReplaced: false),
      .snapshot(scope: "card:42", seq: 17, state: .null, logReplaced: true),
      .update(
        scope: "card:42", seq: 18,
        change: .diff(
          StateDiff(operations: [
            .set(path: ["title"], value: "Fix the login"), .remove(path: ["cards", .id(7)]),
            .move(path: ["cards", .id(1)], after: nil), .append(path: ["log"], values: ["saved"]),
            .truncate(path: ["log"], count: 0),
          ]))),
      .update(scope: "counter", seq: 19, change: .reset(5)),
      .ack(client: "w-7f3a", cseq: 12, seq: 18),
      .refused(client: "w-7f3a", cseq: 13, seq: 19, reason: "the column is full"),
      .refused(client: "w-7f3a", cseq: 14, seq: nil, reason: ""),
      .detached(scope: "card:42"),
      .ping,
      .pong,
      .error(code: .badMessage, message: "the text is not valid JSON", cseq: nil),
      .status(.init(pid: 4242, startedAt: 1_790_000_000.5, seq: 17, windows: 3, scopes: ["counter": 2, "card:42": 1])),
    ]
    for code in ServerMessage.ErrorCode.allCases {
      messages.append(.error(code: code, message: "\(code)", cseq: 12))
    }
    return messages
  }()

  /// The `type` each case is written with. The switch names every case, so that a new one
  /// does not compile until it is named here: add an example of it to `clientMessages` and its
  /// entry to the schema.
  static func wireType(_ message: ClientMessage) -> String {
    switch message {
    case .hello: "hello"
    case .attach: "attach"
    case .detach: "detach"
    case .send: "send"
    case .ping: "ping"
    case .pong: "pong"
    case .status: "status"
    }
  }

  /// As above, for ServerMessage: add an example to `serverMessages` and an entry to the schema.
  static func wireType(_ message: ServerMessage) -> String {
    switch message {
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

  // MARK: - Reading the schema

  /// Checks each encoded line against the one entry of `$defs/<union>.oneOf` with its `type`.
  private func checkEntries(of union: String, against lines: [(type: String, line: Data)]) throws {
    let entries = try Self.entries(of: union, in: Self.definitions())
    #expect(Set(entries.compactMap(Self.typeConst)) == Set(lines.map(\.type)), "the schema's \(union) types are not the cases'")
    for (type, line) in lines {
      #expect(line.last == UInt8(ascii: "\n") && !line.dropLast().contains(UInt8(ascii: "\n")), "\(type) is not one line")
      let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any], "\(type)")
      #expect(object["type"] as? String == type)
      let matching = entries.filter { Self.typeConst($0) == type }
      try #require(matching.count == 1, "\(union) has \(matching.count) entries for \"\(type)\"")
      let properties = Set((matching[0]["properties"] as? [String: Any] ?? [:]).keys)
      let required = Set(matching[0]["required"] as? [String] ?? [])
      let keys = Set(object.keys)
      #expect(keys.isSubset(of: properties), "\(type): \(keys.subtracting(properties).sorted()) not in the schema")
      #expect(required.isSubset(of: keys), "\(type): required \(required.subtracting(keys).sorted()) not written")
    }
  }

  /// The protocol's page lists every message of the schema, from the side that sends it, with
  /// its required members, and no message the schema does not have.
  @Test func theProtocolPageListsEveryMessageOfTheSchema() throws {
    let page = try String(
      contentsOf: Self.schemaURL.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/reference/wire-protocol.md"), encoding: .utf8)
    let rows = page.split(separator: "\n").filter { $0.hasPrefix("| `") }.map(String.init)
    let definitions = try Self.definitions()
    var listed = 0
    for (union, side) in [("ClientMessage", "peer → daemon"), ("ServerMessage", "daemon → peer")] {
      for message in try Self.entries(of: union, in: definitions) {
        let properties = message["properties"] as? [String: Any] ?? [:]
        let type = try #require((properties["type"] as? [String: Any])?["const"] as? String)
        let row = rows.first { $0.hasPrefix("| `\(type)` | \(side) |") }
        #expect(row != nil, "docs/reference/wire-protocol.md has no row for \(type) (\(side))")
        for member in message["required"] as? [String] ?? [] where member != "type" {
          #expect(row?.contains("`\(member)`") == true, "\(type): its row does not name \(member)")
        }
        listed += 1
      }
    }
    #expect(rows.count == listed, "the page lists \(rows.count) messages, the schema \(listed)")
  }

  static let schemaURL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Tests/ConcordWireTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // the package root
    .appendingPathComponent("schema").appendingPathComponent("wire-protocol.schema.json")

  static func definitions() throws -> [String: Any] {
    let root = try JSONSerialization.jsonObject(with: Data(contentsOf: schemaURL)) as? [String: Any]
    return try #require(root?["$defs"] as? [String: Any], "no $defs in \(schemaURL.path)")
  }

  /// The entries of `$defs/<union>.oneOf`, each `{"$ref": "#/$defs/…"}` replaced by its target.
  static func entries(of union: String, in definitions: [String: Any]) throws -> [[String: Any]] {
    let oneOf = try #require((definitions[union] as? [String: Any])?["oneOf"] as? [[String: Any]], "no \(union).oneOf")
    return try oneOf.map { entry in
      guard let ref = entry["$ref"] as? String else { return entry }
      try #require(ref.hasPrefix("#/$defs/"), "\(ref) is not a local definition")
      return try #require(definitions[String(ref.dropFirst("#/$defs/".count))] as? [String: Any], "\(ref) is missing")
    }
  }

  /// The `const` of an entry's `type` property: the message type it describes.
  static func typeConst(_ entry: [String: Any]) -> String? {
    ((entry["properties"] as? [String: Any])?["type"] as? [String: Any])?["const"] as? String
  }
}
