import Foundation

/// Turns messages into lines and lines into messages.
///
/// ```swift
/// let line = try WireCoding.line(for: ServerMessage.pong)   // {"type":"pong"}\n
/// let message = try WireCoding.decode(ClientMessage.self, from: bytes)
/// ```
public enum WireCoding {
  /// The message as one line of compact JSON, with its newline.
  public static func line<Message: Encodable>(for message: Message) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var data = try encoder.encode(message)
    data.append(UInt8(ascii: "\n"))
    return data
  }

  /// Decodes one line (without its newline). The error says, in words, what was wrong.
  public static func decode<Message: Decodable>(_ type: Message.Type, from line: some DataProtocol) throws(WireError) -> Message {
    do {
      return try JSONDecoder().decode(Message.self, from: Data(line))
    } catch let DecodingError.dataCorrupted(context) {
      throw .badMessage(reason(context, fallback: "the line is not valid JSON"))
    } catch let DecodingError.keyNotFound(key, context) {
      throw .badMessage(reason(context, fallback: "the field \"\(key.stringValue)\" is missing"))
    } catch let DecodingError.typeMismatch(_, context) {
      throw .badMessage(reason(context, fallback: "a field has the wrong type"))
    } catch let DecodingError.valueNotFound(_, context) {
      throw .badMessage(reason(context, fallback: "a field is null"))
    } catch {
      throw .badMessage("the line could not be read: \(error)")
    }
  }

  private static func reason(_ context: DecodingError.Context, fallback: String) -> String {
    let path = context.codingPath.map(\.stringValue).joined(separator: ".")
    if context.debugDescription.hasPrefix("unknown message type") { return context.debugDescription }
    if context.underlyingError != nil || context.codingPath.isEmpty { return fallback }
    return "\(fallback) (at \(path))"
  }
}
