import ConcordJSON
import Foundation

/// Turns messages into lines and lines into messages.
///
/// A connection keeps one for its life: the encoder and decoder are made once, not per message.
/// It is not `Sendable`; each task that reads or writes has its own.
///
/// ```swift
/// var coding = WireCoding()
/// let line = try coding.line(for: ServerMessage.pong)   // {"type":"pong"}\n
/// let message = try coding.decode(ClientMessage.self, from: bytes)
/// ```
public struct WireCoding {
  private let encoder = JSONCoders.encoder()
  private let decoder = JSONCoders.decoder()

  public init() {}

  /// The message as one line of compact JSON, with its newline.
  public func line<Message: Encodable>(for message: Message) throws -> Data {
    var data = try encoder.encode(message)
    data.append(UInt8(ascii: "\n"))
    return data
  }

  /// Decodes one line (without its newline). The error says, in words, what was wrong.
  public func decode<Message: Decodable>(_ type: Message.Type, from line: some DataProtocol) throws(WireError) -> Message {
    do {
      return try decoder.decode(Message.self, from: Data(line))
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
