/// One step of a path into a JSON state: an object key, an array index, or the id of an
/// element of a keyed array.
///
/// A path is a list of components from the root of the state; the empty path is the state
/// itself. On the wire a key is a JSON string, an index a JSON number, and an id an object with
/// the single field `"id"`, so the three never look alike:
///
/// ```swift
/// let path: [PathComponent] = ["columns", .id("todo"), "cards", 0]
/// // ["columns",{"id":"todo"},"cards",0]
/// ```
public enum PathComponent: Sendable, Hashable, Codable {
  /// A key of an object.
  case key(String)
  /// A position in an array, from 0.
  case index(Int)
  /// The element of a keyed array whose `"id"` field is this id.
  case id(ElementID)

  /// The component as it is written on the wire.
  var jsonValue: JSONValue {
    switch self {
    case let .key(key): .string(key)
    case let .index(index): .integer(Int64(index))
    case let .id(id): .object(["id": id.jsonValue])
    }
  }

  /// Reads a component as it is written on the wire.
  init(jsonValue value: JSONValue) throws(DiffError) {
    switch value {
    case let .string(key):
      self = .key(key)
    case .integer, .number:
      guard let index = value.int64, index >= 0, let small = Int(exactly: index) else {
        throw DiffError("an index is a whole number from 0, not \(value.jsonText)")
      }
      self = .index(small)
    case let .object(object):
      guard object.count == 1, let idValue = object["id"], let id = ElementID(idValue) else {
        throw DiffError(#"an element id is written {"id": string or number}, not \#(value.jsonText)"#)
      }
      self = .id(id)
    default:
      throw DiffError("a path component is a key, an index or {\"id\": …}, not \(value.jsonText)")
    }
  }

  public init(from decoder: any Decoder) throws {
    let value = try JSONValue(from: decoder)
    do {
      self = try PathComponent(jsonValue: value)
    } catch {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    try jsonValue.encode(to: encoder)
  }

  /// A path as readable text for messages: its JSON, or "the state" for the empty path.
  static func describe(_ path: some Collection<PathComponent>) -> String {
    path.isEmpty ? "the state" : JSONValue.array(path.map(\.jsonValue)).jsonText
  }
}

extension PathComponent: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
  /// `"title"` is `.key("title")`.
  public init(stringLiteral value: String) { self = .key(value) }
  /// `3` is `.index(3)`.
  public init(integerLiteral value: Int) { self = .index(value) }
}
