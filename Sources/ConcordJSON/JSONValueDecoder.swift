import Foundation

/// Decodes a `Decodable` value straight from a ``JSONValue``, without writing it as text and
/// parsing it again: what ``JSONValue/decode(_:)`` uses.
///
/// It reads what `JSONCoders.decoder()` reads from the value's text, with its errors (the same
/// `DecodingError` cases and coding paths), so callers cannot tell the two apart but by speed:
/// integers must be whole and fit the type, a `Double` takes any number, a date is a
/// ``JSONDate`` timestamp, `null` is absent for an optional.
package struct JSONValueDecoder: Decoder {
  /// The value being decoded: ``ActionCase`` looks at it to find an action's case.
  package let value: JSONValue
  let path: CodingPath
  /// Values decoded before from equal JSON, kept for the next decode (``DecodeMemo``).
  let memo: DecodeMemo?
  package var userInfo: [CodingUserInfoKey: Any] { [:] }
  package var codingPath: [any CodingKey] { path.keys }

  init(_ value: JSONValue, path: CodingPath = .root, memo: DecodeMemo? = nil) {
    self.value = value
    self.path = path
    self.memo = memo
  }

  package func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case let .object(members) = value else { throw mismatch([String: JSONValue].self, value, path) }
    return KeyedDecodingContainer(Keyed<Key>(members: members, path: path, memo: memo))
  }

  package func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case let .array(elements) = value else { throw mismatch([JSONValue].self, value, path) }
    return Unkeyed(elements: elements, path: path, memo: memo)
  }

  package func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(value: value, path: path, memo: memo) }

  /// `value` as a `T`: the shared rule of every container.
  static func decode<T: Decodable>(
    _ type: T.Type, from value: JSONValue, at path: CodingPath, memo: DecodeMemo? = nil
  ) throws -> T {
    if type == JSONValue.self { return value as! T }
    if type == Date.self {
      guard case let .string(text) = value, let date = try? JSONDate.date(from: text) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: path.keys, debugDescription: JSONDateError.notATimestamp.description,
            underlyingError: JSONDateError.notATimestamp))
      }
      return date as! T
    }
    if case .null = value, !(type is any OptionalDecodable.Type) {
      throw DecodingError.valueNotFound(type, DecodingError.Context(codingPath: path.keys, debugDescription: "null where a value is expected"))
    }
    if let memo, type is any MemoizedDecodable.Type, case let .object(members) = value, let id = members["id"] {
      if let kept = memo.value(of: type, id: id, decodedFrom: members) { return kept }
      let decoded = try T(from: JSONValueDecoder(value, path: path, memo: memo))
      memo.keep(decoded, id: id, decodedFrom: members)
      return decoded
    }
    return try T(from: JSONValueDecoder(value, path: path, memo: memo))
  }

  struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let path: CodingPath
    let memo: DecodeMemo?
    var codingPath: [any CodingKey] { path.keys }

    var allKeys: [Key] {
      // One member is the usual case (an enum's case, an action): no generic walk for it.
      // (An `if let`, not `Optional.map`: this runs unspecialized, where a closure costs more.)
      if members.count == 1, let name = members.keys.first {
        guard let key = Key(stringValue: name) else { return [] }
        return [key]
      }
      return members.keys.compactMap { Key(stringValue: $0) }
    }
    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func member(_ key: Key) throws -> JSONValue {
      guard let member = members[key.stringValue] else {
        throw DecodingError.keyNotFound(
          key, DecodingError.Context(codingPath: codingPath, debugDescription: "no value for the key \(key.stringValue)"))
      }
      return member
    }

    func decodeNil(forKey key: Key) throws -> Bool {
      if case .null = try member(key) { return true }
      return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
      try JSONValueDecoder.decode(type, from: try member(key), at: .key(key, path), memo: memo)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try Single(value: try member(key), path: .key(key, path)).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try Single(value: try member(key), path: .key(key, path)).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try Single(value: try member(key), path: .key(key, path)).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try Single(value: try member(key), path: .key(key, path)).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try Single(value: try member(key), path: .key(key, path)).decode(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
      try JSONValueDecoder(try member(key), path: .key(key, path), memo: memo).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      try JSONValueDecoder(try member(key), path: .key(key, path), memo: memo).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
      JSONValueDecoder(members["super"] ?? .null, path: .key(JSONKey("super"), path), memo: memo)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
      JSONValueDecoder(members[key.stringValue] ?? .null, path: .key(key, path), memo: memo)
    }
  }

  struct Unkeyed: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let path: CodingPath
    let memo: DecodeMemo?
    var currentIndex = 0
    var codingPath: [any CodingKey] { path.keys }

    init(elements: [JSONValue], path: CodingPath, memo: DecodeMemo?) {
      self.elements = elements
      self.path = path
      self.memo = memo
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next<T>(_ type: T.Type) throws -> (JSONValue, CodingPath) {
      let path = CodingPath.index(currentIndex, path)
      guard !isAtEnd else {
        throw DecodingError.valueNotFound(type, DecodingError.Context(codingPath: path.keys, debugDescription: "the array has no more elements"))
      }
      defer { currentIndex += 1 }
      return (elements[currentIndex], path)
    }

    mutating func decodeNil() throws -> Bool {
      guard !isAtEnd else { return false }
      if case .null = elements[currentIndex] {
        currentIndex += 1
        return true
      }
      return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
      let (element, path) = try next(type)
      return try JSONValueDecoder.decode(type, from: element, at: path, memo: memo)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
      let (element, path) = try next(type)
      return try JSONValueDecoder(element, path: path, memo: memo).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
      let (element, path) = try next([JSONValue].self)
      return try JSONValueDecoder(element, path: path, memo: memo).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
      let (element, path) = try next(JSONValue.self)
      return JSONValueDecoder(element, path: path, memo: memo)
    }
  }

  struct Single: SingleValueDecodingContainer {
    let value: JSONValue
    let path: CodingPath
    var memo: DecodeMemo? = nil
    var codingPath: [any CodingKey] { path.keys }

    func decodeNil() -> Bool {
      if case .null = value { return true }
      return false
    }

    func decode(_ type: Bool.Type) throws -> Bool {
      guard case let .bool(bool) = value else { throw failure(type) }
      return bool
    }

    func decode(_ type: String.Type) throws -> String {
      guard case let .string(string) = value else { throw failure(type) }
      return string
    }

    func decode(_ type: Double.Type) throws -> Double {
      switch value {
      case let .integer(integer): return Double(integer)
      case let .number(number): return number
      default: throw failure(type)
      }
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
      try JSONValueDecoder.decode(type, from: value, at: path, memo: memo)
    }

    /// A whole number that fits `T`: as written (`.integer`), or a double that is one (which the
    /// value's text writes as digits).
    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
      let whole: Int64?
      switch value {
      case let .integer(integer): whole = integer
      case let .number(number): whole = JSONValue.exactInteger(number)
      default: throw failure(type)
      }
      guard let whole, let fitted = T(exactly: whole) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(codingPath: codingPath, debugDescription: "the number \(value.jsonText) does not fit in \(type)"))
      }
      return fitted
    }

    private func failure(_ type: Any.Type) -> DecodingError {
      if case .null = value {
        return .valueNotFound(type, DecodingError.Context(codingPath: codingPath, debugDescription: "null where a value is expected"))
      }
      return mismatch(type, value, path)
    }
  }
}

private func mismatch(_ type: Any.Type, _ value: JSONValue, _ path: CodingPath) -> DecodingError {
  .typeMismatch(type, DecodingError.Context(codingPath: path.keys, debugDescription: "expected \(type), found \(value.jsonText.prefix(40))"))
}

/// Where a value is, from the root: built one step per level as the decoder descends (no array
/// made, no existential array grown), and spelled as `[any CodingKey]` only when asked — for an
/// error, or by a type that reads `codingPath`. Most decodes never ask.
indirect enum CodingPath {
  case root
  case key(any CodingKey, CodingPath)
  case index(Int, CodingPath)

  var keys: [any CodingKey] {
    var keys: [any CodingKey] = []
    var step = self
    while true {
      switch step {
      case .root: return keys.reversed()
      case let .key(key, parent):
        keys.append(key)
        step = parent
      case let .index(index, parent):
        keys.append(JSONKey(index: index))
        step = parent
      }
    }
  }
}

/// A key of the decoder's own: an array's index, or `super`.
private struct JSONKey: CodingKey {
  let stringValue: String
  let intValue: Int?

  init(_ string: String) {
    stringValue = string
    intValue = nil
  }

  init(index: Int) {
    stringValue = "Index \(index)"
    intValue = index
  }

  init?(stringValue: String) { self.init(stringValue) }
  init?(intValue: Int) { self.init(index: intValue) }
}

/// Optional, to let `null` through to it.
private protocol OptionalDecodable {}
extension Optional: OptionalDecodable {}
