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
      let path = context.codingPath.map(\.stringValue).joined(separator: ".")
      return path.isEmpty ? "expected \(kind(of: type))" : "\(path) should be \(kind(of: type))"
    case let .valueNotFound(_, context):
      return "a value is missing\(at(context))"
    @unknown default:
      return "\(error)"
    }
  }

  /// The kind of JSON value a type is read from, as a person writing JSON names it: the
  /// program's type names mean nothing to them.
  static func kind(of type: Any.Type) -> String {
    switch type {
    case is String.Type, is Character.Type: return "text (a JSON string)"
    case is Bool.Type: return "true or false"
    case is Int.Type, is Int64.Type, is Int32.Type, is Int16.Type, is Int8.Type, is UInt.Type, is UInt64.Type, is UInt32.Type,
      is UInt16.Type, is UInt8.Type:
      return "a whole number"
    case is Double.Type, is Float.Type: return "a number"
    default:
      let name = String(describing: type)
      if name.hasPrefix("Array<") || name.hasPrefix("Set<") || name.hasPrefix("[") { return "a list (a JSON array)" }
      return "an object"
    }
  }

  private static func at(_ context: DecodingError.Context) -> String {
    let path = context.codingPath.map(\.stringValue).joined(separator: ".")
    return path.isEmpty ? "" : " (at \(path))"
  }
}
