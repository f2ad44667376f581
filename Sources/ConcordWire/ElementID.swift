/// The id of an element of a keyed array: the value of the element's `"id"` field, a string
/// or a number.
///
/// An array is *keyed* when every element is an object with such an id and no two ids are the
/// same; a diff then addresses its elements by id rather than by index, so inserting or moving
/// one element does not shift the addresses of the others.
///
/// ```swift
/// let card: JSONValue = ["id": "c7", "title": "Ship it"]
/// ElementID(of: card)     // .string("c7")
/// ```
///
/// On the wire an id is its plain JSON value: `"c7"` or `42`.
public enum ElementID: Sendable, Hashable, Codable, CustomStringConvertible {
  case string(String)
  /// An integral id, exactly (every integral id is this case, however it was written).
  case integer(Int64)
  /// An id that is a number but not an `Int64`.
  case number(Double)

  /// The id of `element`, when it is an object whose `"id"` is a string or a number.
  public init?(of element: JSONValue) {
    guard case let .object(object) = element, let id = object["id"] else { return nil }
    self.init(id)
  }

  /// `value` as an id, when it is a string or a number.
  public init?(_ value: JSONValue) {
    switch value {
    case let .string(string): self = .string(string)
    case let .integer(integer): self = .integer(integer)
    case let .number(number): self = JSONValue.exactInteger(number).map(ElementID.integer) ?? .number(number)
    default: return nil
    }
  }

  /// The id as the JSON value it is in the element's `"id"` field.
  public var jsonValue: JSONValue {
    switch self {
    case let .string(string): .string(string)
    case let .integer(integer): .integer(integer)
    case let .number(number): .number(number)
    }
  }

  /// The id's JSON text: `"c7"` or `42`.
  public var description: String { jsonValue.jsonText }

  public init(from decoder: any Decoder) throws {
    let value = try JSONValue(from: decoder)
    guard let id = ElementID(value) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "an id is a string or a number, not \(value.jsonText)")
      )
    }
    self = id
  }

  public func encode(to encoder: any Encoder) throws {
    try jsonValue.encode(to: encoder)
  }
}

extension ElementID: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
  /// `"c7"` is `.string("c7")`.
  public init(stringLiteral value: String) { self = .string(value) }
  /// `42` is `.integer(42)`.
  public init(integerLiteral value: Int) { self = .integer(Int64(value)) }
}
