import Foundation

/// Encodes an `Encodable` value straight into a ``JSONValue``, without writing text and parsing
/// it back: what ``JSONValue/init(encoding:)`` uses. The daemon encodes every action for the log
/// and every changed scope's state for its windows this way.
///
/// It gives the value that `JSONCoders.encoder()`'s text parses to (``JSONParser``), with its
/// errors: a date is a ``JSONDate`` timestamp, `Data` base64 text, a `URL` its absolute string,
/// a `Decimal` a number; an integral `Double` or `Float` within `Int64` is an integer, as its
/// text reads back; a number that is not finite throws `EncodingError.invalidValue`; a member
/// that encodes nothing is an empty object, and a whole value that encodes nothing throws.
///
/// ```swift
/// try JSONValueEncoder.encode(["b": 2, "a": 1])   // .object(["a": .integer(1), "b": .integer(2)])
/// ```
enum JSONValueEncoder {
  static func encode<T: Encodable>(_ value: T, memo: EncodeMemo? = nil) throws -> JSONValue {
    try encode(value, at: nil, memo: memo)
  }

  /// `value` as JSON: the shared rule of every container. `path` leads to it, for errors; `memo`
  /// keeps the JSON of ``MemoizedEncodable`` values, and gives it again for equal ones.
  /// (Types are compared rather than cast: a cast for each of them would cost every value.)
  fileprivate static func encode<T: Encodable>(_ value: T, at path: CodingPathNode?, memo: EncodeMemo?) throws -> JSONValue {
    if T.self == JSONValue.self { return value as! JSONValue }
    if T.self == Date.self {
      let date = value as! Date
      do {
        return .string(try JSONDate.text(date))
      } catch {
        throw EncodingError.invalidValue(
          date, EncodingError.Context(codingPath: path.codingPath, debugDescription: error.description, underlyingError: error))
      }
    }
    if T.self == Data.self { return .string((value as! Data).base64EncodedString()) }
    if T.self == URL.self { return .string((value as! URL).absoluteString) }
    if T.self == Decimal.self { return try JSONParser.parse(Array((value as! Decimal).description.utf8)) }
    // Only where a memo is given (the daemon's scopes) does a value pay for this cast.
    if let memo, let memoized = value as? any MemoizedEncodable {
      return try encode(memoized, at: path, keptIn: memo)
    }
    return try encodeFields(of: value, at: path, memo: memo)
  }

  /// A ``MemoizedEncodable`` value: its JSON kept in `memo` while it is equal to the value kept.
  private static func encode<T: MemoizedEncodable>(_ value: T, at path: CodingPathNode?, keptIn memo: EncodeMemo) throws -> JSONValue {
    if let json = memo.json(for: value) { return json }
    let json = try encodeFields(of: value, at: path, memo: memo)
    memo.keep(json, for: value)
    return json
  }

  /// `value` as JSON, through its `encode(to:)`.
  private static func encodeFields<T: Encodable>(of value: T, at path: CodingPathNode?, memo: EncodeMemo?) throws -> JSONValue {
    let encoder = ValueEncoder(path: path, memo: memo)
    try value.encode(to: encoder)
    if path == nil, case .empty = encoder.box.content {
      throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: [], debugDescription: "\(T.self) encoded no value"))
    }
    return encoder.box.resolved()
  }

  /// `number` as its JSON text reads back: an integer when it is one that fits `Int64`.
  fileprivate static func number(_ number: Double, original: Any, at path: CodingPathNode?) throws -> JSONValue {
    guard number.isFinite else {
      throw EncodingError.invalidValue(
        original, EncodingError.Context(codingPath: path.codingPath, debugDescription: "\(number) is not a JSON number"))
    }
    return JSONValue.exactInteger(number).map(JSONValue.integer) ?? .number(number)
  }
}

/// What a container is building: one value, an object or an array. Members are stored as
/// values; a member that a nested container or encoder still writes into is kept aside as a box
/// and put in place when the whole is resolved (hence a class).
private final class Box {
  enum Content {
    case empty
    case value(JSONValue)
    case object([String: JSONValue])
    case array([JSONValue])
  }

  var content: Content = .empty
  /// Members still being written by nested containers, by key (objects) or index (arrays).
  private var nestedMembers: [(key: String, box: Box)] = []
  private var nestedElements: [(index: Int, box: Box)] = []

  func resolved() -> JSONValue {
    switch content {
    case .empty: return .object([:])
    case let .value(value): return value
    case var .object(members):
      content = .empty
      for (key, box) in nestedMembers { members[key] = box.resolved() }
      return .object(members)
    case var .array(elements):
      content = .empty
      for (index, box) in nestedElements { elements[index] = box.resolved() }
      return .array(elements)
    }
  }

  /// Makes the content an object (keeping one already begun), as Foundation does when a type
  /// asks for the same keyed container twice.
  func makeObject() {
    if case .object = content { return }
    content = .object([:])
  }

  func makeArray() {
    if case .array = content { return }
    content = .array([])
  }

  func set(_ value: JSONValue, forKey key: String) {
    guard case var .object(members) = content else { return }
    // Let go of the content first, so that the dictionary is changed in place, not copied.
    content = .empty
    members[key] = value
    content = .object(members)
  }

  func append(_ value: JSONValue) {
    guard case var .array(elements) = content else { return }
    content = .empty
    elements.append(value)
    content = .array(elements)
  }

  /// A box for the member `key`, which a nested container fills.
  func nested(forKey key: String) -> Box {
    let box = Box()
    set(.null, forKey: key)
    nestedMembers.append((key, box))
    return box
  }

  /// A box for the next element, which a nested container fills.
  func nestedElement() -> Box {
    let box = Box()
    nestedElements.append((count, box))
    append(.null)
    return box
  }

  /// The elements so far (what an unkeyed container counts).
  var count: Int {
    if case let .array(elements) = content { elements.count } else { 0 }
  }
}

/// The coding path, as a list from the leaf up: built only when an error needs it.
private final class CodingPathNode {
  let key: any CodingKey
  let parent: CodingPathNode?

  init(_ key: any CodingKey, parent: CodingPathNode?) {
    self.key = key
    self.parent = parent
  }
}

extension CodingPathNode? {
  fileprivate var codingPath: [any CodingKey] {
    var keys: [any CodingKey] = []
    var node = self
    while let current = node {
      keys.append(current.key)
      node = current.parent
    }
    return keys.reversed()
  }
}

/// A key for an array element, or for `super`. Its text is made only when an error asks.
private struct IndexKey: CodingKey {
  private let name: String?
  let intValue: Int?
  var stringValue: String { name ?? "Index \(intValue ?? 0)" }

  init(index: Int) {
    name = nil
    intValue = index
  }
  init?(stringValue: String) {
    name = stringValue
    intValue = nil
  }
  init?(intValue: Int) { self.init(index: intValue) }
  static let superKey = IndexKey(stringValue: "super")!
}

private final class ValueEncoder: Encoder {
  let box: Box
  let path: CodingPathNode?
  let memo: EncodeMemo?
  var codingPath: [any CodingKey] { path.codingPath }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(path: CodingPathNode?, memo: EncodeMemo?, box: Box = Box()) {
    self.path = path
    self.memo = memo
    self.box = box
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    box.makeObject()
    return KeyedEncodingContainer(Keyed<Key>(box: box, path: path, memo: memo))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    box.makeArray()
    return Unkeyed(box: box, path: path, memo: memo)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { Single(box: box, path: path, memo: memo) }
}

private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let box: Box
  let path: CodingPathNode?
  let memo: EncodeMemo?
  var codingPath: [any CodingKey] { path.codingPath }

  private func set(_ value: JSONValue, _ key: Key) { box.set(value, forKey: key.stringValue) }
  private func child(_ key: Key) -> CodingPathNode { CodingPathNode(key, parent: path) }

  mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
  mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    set(try JSONValueEncoder.number(value, original: value, at: child(key)), key)
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    set(try JSONValueEncoder.number(Double(floatText: value), original: value, at: child(key)), key)
  }
  mutating func encode(_ value: Int, forKey key: Key) throws { set(.integer(Int64(value)), key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { set(.integer(Int64(value)), key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { set(.integer(Int64(value)), key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { set(.integer(Int64(value)), key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { set(.integer(value), key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { set(.unsigned(UInt64(value)), key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.integer(Int64(value)), key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.integer(Int64(value)), key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.integer(Int64(value)), key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { set(.unsigned(value), key) }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    set(try JSONValueEncoder.encode(value, at: child(key), memo: memo), key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    ValueEncoder(path: child(key), memo: memo, box: box.nested(forKey: key.stringValue)).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    ValueEncoder(path: child(key), memo: memo, box: box.nested(forKey: key.stringValue)).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder { superEncoder(named: IndexKey.superKey) }
  mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key) }

  private func superEncoder(named key: any CodingKey) -> any Encoder {
    ValueEncoder(path: CodingPathNode(key, parent: path), memo: memo, box: box.nested(forKey: key.stringValue))
  }
}

/// What an unkeyed and a single-value container share: each value goes to one place (the next
/// element, or the value itself), so one set of primitive encodes serves both.
private protocol ValueWriting {
  /// Where the value being written goes, for errors.
  var valuePath: CodingPathNode? { get }
  var memo: EncodeMemo? { get }
  func write(_ value: JSONValue)
}

extension ValueWriting {
  mutating func encodeNil() throws { write(.null) }
  mutating func encode(_ value: Bool) throws { write(.bool(value)) }
  mutating func encode(_ value: String) throws { write(.string(value)) }
  mutating func encode(_ value: Double) throws { write(try JSONValueEncoder.number(value, original: value, at: valuePath)) }
  mutating func encode(_ value: Float) throws {
    write(try JSONValueEncoder.number(Double(floatText: value), original: value, at: valuePath))
  }
  mutating func encode(_ value: Int) throws { write(.integer(Int64(value))) }
  mutating func encode(_ value: Int8) throws { write(.integer(Int64(value))) }
  mutating func encode(_ value: Int16) throws { write(.integer(Int64(value))) }
  mutating func encode(_ value: Int32) throws { write(.integer(Int64(value))) }
  mutating func encode(_ value: Int64) throws { write(.integer(value)) }
  mutating func encode(_ value: UInt) throws { write(.unsigned(UInt64(value))) }
  mutating func encode(_ value: UInt8) throws { write(.integer(Int64(value))) }
  mutating func encode(_ value: UInt16) throws { write(.integer(Int64(value))) }
  mutating func encode(_ value: UInt32) throws { write(.integer(Int64(value))) }
  mutating func encode(_ value: UInt64) throws { write(.unsigned(value)) }
  mutating func encode<T: Encodable>(_ value: T) throws { write(try JSONValueEncoder.encode(value, at: valuePath, memo: memo)) }
}

private struct Unkeyed: UnkeyedEncodingContainer, ValueWriting {
  let box: Box
  let path: CodingPathNode?
  let memo: EncodeMemo?
  var codingPath: [any CodingKey] { path.codingPath }
  var count: Int { box.count }

  var valuePath: CodingPathNode? { CodingPathNode(IndexKey(index: count), parent: path) }
  func write(_ value: JSONValue) { box.append(value) }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
    let path = valuePath
    return ValueEncoder(path: path, memo: memo, box: box.nestedElement()).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let path = valuePath
    return ValueEncoder(path: path, memo: memo, box: box.nestedElement()).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let path = valuePath
    return ValueEncoder(path: path, memo: memo, box: box.nestedElement())
  }
}

private struct Single: SingleValueEncodingContainer, ValueWriting {
  let box: Box
  let path: CodingPathNode?
  let memo: EncodeMemo?
  var codingPath: [any CodingKey] { path.codingPath }

  var valuePath: CodingPathNode? { path }
  func write(_ value: JSONValue) { box.content = .value(value) }
}

extension JSONValue {
  /// An unsigned integer as its digits read back: past `Int64`, a (rounded) number.
  fileprivate static func unsigned(_ value: UInt64) -> JSONValue {
    value <= UInt64(Int64.max) ? .integer(Int64(value)) : .number(Double(value))
  }
}

extension Double {
  /// A `Float` as the Double its shortest text reads back as (`0.1`, not 0.100000001490116).
  fileprivate init(floatText value: Float) {
    self = value.isFinite ? Double(value.description) ?? Double(value) : Double(value)
  }
}
