import ConcordJSON
import Foundation

/// Turns messages into lines and lines into messages, through ``JSONValue`` (no Foundation
/// coder): a window decodes every message the daemon sends it, a whole board among them.
///
/// ```swift
/// let coding = WireCoding()
/// let line = try coding.line(for: ServerMessage.pong)   // {"type":"pong"}\n
/// let message = try coding.decode(ClientMessage.self, from: bytes)
/// ```
public struct WireCoding {
  public init() {}

  /// The message as one line of compact JSON, with its newline.
  public func line<Message: Encodable>(for message: Message) throws -> Data {
    Data((try JSONValue(encoding: message).jsonText + "\n").utf8)
  }

  /// Decodes one line (without its newline). The error says, in words, what was wrong.
  public func decode<Message: Decodable>(_ type: Message.Type, from line: some DataProtocol) throws(WireError) -> Message {
    let json: JSONValue
    do {
      json = try JSONParser.parse(line)
    } catch {
      throw .badMessage("the text is not valid JSON (\(error))")
    }
    do {
      return try json.decode(Message.self)
    } catch {
      throw .badMessage(Self.describe(error))
    }
  }

  /// A decoding error in a sentence a person can act on, naming the field when there is one.
  public static func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    switch error {
    case let .dataCorrupted(context):
      if let dateError = context.underlyingError as? JSONDateError { return "\(dateError)\(at(context))" }
      if context.debugDescription.hasPrefix("unknown message type") { return context.debugDescription }
      return context.codingPath.isEmpty ? "the text is not valid JSON" : "a value is not valid\(at(context))"
    case let .keyNotFound(key, context):
      return "the field \"\(key.stringValue)\" is missing\(at(context))"
    case let .typeMismatch(type, context):
      return "expected \(type)\(at(context))"
    case let .valueNotFound(_, context):
      return "a value is missing\(at(context))"
    @unknown default:
      return "\(error)"
    }
  }

  private static func at(_ context: DecodingError.Context) -> String {
    let path = context.codingPath.map(\.stringValue).joined(separator: ".")
    return path.isEmpty ? "" : " (at \(path))"
  }
}
