import Foundation

/// The Foundation coders of every JSON Concord writes or reads through `Codable`: the log's
/// actions, the wire's messages and states, the snapshots. Made here so that all of them spell a
/// date one way (``JSONDate``).
///
/// ```swift
/// let text = try JSONCoders.encoder().encode(action)
/// let action = try JSONCoders.decoder().decode(Action.self, from: text)
/// ```
public enum JSONCoders {
  /// An encoder that leaves slashes as they are.
  ///
  /// - Parameter sortedKeys: sort each object's keys, so that the same value always gives the
  ///   same text (what the log keeps); costs time where only the value matters.
  public static func encoder(sortedKeys: Bool = true) -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = sortedKeys ? [.sortedKeys, .withoutEscapingSlashes] : [.withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      do {
        try container.encode(try JSONDate.text(date))
      } catch let error as JSONDateError {
        throw EncodingError.invalidValue(
          date, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: error.description, underlyingError: error))
      }
    }
    return encoder
  }

  /// A decoder that reads dates as ``JSONDate`` does. A date's error carries the
  /// ``JSONDateError`` as its underlying error.
  public static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      // A number is not a date here: the schema spells dates as text, and a count of seconds
      // from an unknown epoch is how a wrong date goes unnoticed.
      guard let text = try? container.decode(String.self) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: decoder.codingPath, debugDescription: JSONDateError.notATimestamp.description,
            underlyingError: JSONDateError.notATimestamp))
      }
      do {
        return try JSONDate.date(from: text)
      } catch let error as JSONDateError {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.description, underlyingError: error))
      }
    }
    return decoder
  }
}
