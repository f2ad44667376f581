import Foundation

/// A JSON document as a value: what a scope's state looks like on the wire.
///
/// The daemon turns a scope's Swift state into a `JSONValue` once, and windows keep one as
/// their copy of the state; `StateDiff` moves one to the next.
///
/// ```swift
/// struct Card: Codable { var id: Int; var title: String }
/// let json = try JSONValue(encoding: Card(id: 7, title: "Ship it"))
/// json.jsonText                          // {"id":7,"title":"Ship it"}
/// try json.decode(Card.self).title       // "Ship it"
/// try JSONValue(parsing: "[1,true,null]") == .array([.integer(1), .bool(true), .null])
/// ```
///
/// Its `Codable` form is the plain JSON it stands for, not an enum with cases:
/// `.object(["a": .integer(1)])` encodes as `{"a":1}`.
///
/// A number written as an integer (digits, no fraction, no exponent) that fits `Int64` is read
/// as `.integer`, exactly: `9007199254740993` stays itself, where a `Double` would make it
/// `9007199254740992`. Every other number is a `.number`, an IEEE double. The two cases are
/// equal when they are the same number (`.integer(3) == .number(3)`).
public enum JSONValue: Sendable, Hashable, Codable {
  case null
  case bool(Bool)
  /// An integer as written: digits, no fraction or exponent, within `Int64`.
  case integer(Int64)
  /// Any other number: a fraction, an exponent, or an integer past `Int64`.
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// The JSON form of any Encodable value, as the text `JSONCoders.encoder()` writes of it
  /// reads back (``JSONValueEncoder``, which writes no text).
  ///
  /// ```swift
  /// try JSONValue(encoding: ["b": 2, "a": 1]) == .object(["a": .integer(1), "b": .integer(2)])
  /// ```
  public init<T: Encodable>(encoding value: T) throws {
    self = try JSONValueEncoder.encode(value)
  }

  /// Encodes as ``init(encoding:)`` does, taking from `memo` (when there is one) the JSON of
  /// each ``MemoizedEncodable`` element equal to the one it was encoded from last time: the
  /// daemon encodes a big state after every action, and an action leaves most elements as they
  /// were.
  public init<T: Encodable>(encoding value: T, memo: EncodeMemo?) throws {
    self = try JSONValueEncoder.encode(value, memo: memo)
  }

  /// Decodes a Decodable value from this JSON, as `JSONCoders.decoder()` would from its text,
  /// without writing the text (``JSONValueDecoder``): this runs for every action a window sends
  /// and every state a window draws.
  ///
  /// ```swift
  /// try JSONValue.integer(3).decode(Int.self)   // 3
  /// ```
  public func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try JSONValueDecoder.decode(type, from: self, at: .root)
  }

  /// Decodes as ``decode(_:)`` does, taking from `memo` each ``MemoizedDecodable`` element whose
  /// JSON is the one it was decoded from last time: a window decodes a big state after every
  /// change, and a change leaves most elements as they were.
  public func decode<T: Decodable>(_ type: T.Type, memo: DecodeMemo) throws -> T {
    try JSONValueDecoder.decode(type, from: self, at: .root, memo: memo)
  }

  /// Parses JSON text (RFC 8259, strictly: see ``JSONParser``); throws on invalid JSON.
  ///
  /// ```swift
  /// try JSONValue(parsing: #"{"a":[1,"x"]}"#) == .object(["a": .array([.integer(1), .string("x")])])
  /// ```
  public init(parsing text: some StringProtocol) throws {
    self = try JSONParser.parse(Array(text.utf8))
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    // Bool before Double: a decoder that bridges numbers to booleans must not turn `true`
    // into 1, and JSONDecoder refuses to read a number as a Bool.
    if container.decodeNil() {
      self = .null
    } else if let bool = try? container.decode(Bool.self) {
      self = .bool(bool)
    } else if let integer = try? container.decode(Int64.self) {
      self = .integer(integer)
    } else if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else if let string = try? container.decode(String.self) {
      self = .string(string)
    } else if let array = try? container.decode([JSONValue].self) {
      self = .array(array)
    } else if let object = try? container.decode([String: JSONValue].self) {
      self = .object(object)
    } else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case let .bool(bool): try container.encode(bool)
    case let .integer(integer): try container.encode(integer)
    case let .number(number):
      // Integral numbers are written as integers, so that `3` stays `3` (never `3.0`) in
      // every encoder and decodes as an `Int` on the other side.
      if let integer = Self.exactInteger(number) {
        try container.encode(integer)
      } else {
        try container.encode(number)
      }
    case let .string(string): try container.encode(string)
    case let .array(array): try container.encode(array)
    case let .object(object): try container.encode(object)
    }
  }

  /// The integer this is, when it is one written as an integer: how every integer the protocol
  /// defines (seq, cseq, counts, indices) is read. `1.0`, `1e3` and `2^63` are not.
  public var int64: Int64? {
    if case let .integer(integer) = self { integer } else { nil }
  }

  public static func == (a: JSONValue, b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): true
    case let (.bool(x), .bool(y)): x == y
    case let (.integer(x), .integer(y)): x == y
    case let (.number(x), .number(y)): x == y
    case let (.integer(x), .number(y)), let (.number(y), .integer(x)): exactInteger(y) == x
    case let (.string(x), .string(y)): x == y
    case let (.array(x), .array(y)): x == y
    case let (.object(x), .object(y)): x == y
    default: false
    }
  }

  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case let .bool(bool): hasher.combine(1); hasher.combine(bool)
    case let .integer(integer): hasher.combine(2); hasher.combine(integer)
    case let .number(number):
      // An integral number hashes as the integer it equals.
      if let integer = Self.exactInteger(number) {
        hasher.combine(2); hasher.combine(integer)
      } else {
        hasher.combine(3); hasher.combine(number)
      }
    case let .string(string): hasher.combine(4); hasher.combine(string)
    case let .array(array): hasher.combine(5); hasher.combine(array)
    case let .object(object): hasher.combine(6); hasher.combine(object)
    }
  }

  /// `number` as an `Int64` when that is exactly the same number.
  @inlinable package static func exactInteger(_ number: Double) -> Int64? {
    // 2^63 is the first Double past Int64.max, so the upper bound is exclusive.
    guard number.rounded(.towardZero) == number, number >= -0x1p63, number < 0x1p63 else {
      return nil
    }
    return Int64(number)
  }
}
