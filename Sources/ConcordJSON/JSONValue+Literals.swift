// Literals make states and diffs readable where they are written out by hand, in tests and
// examples: `["title": "To do", "cards": [["id": 1]]]` instead of nested `.object`/`.array`.
// There is no nil literal on purpose: `object["key"] == nil` must keep meaning "no such key",
// not "the key holds `.null`".

extension JSONValue: ExpressibleByBooleanLiteral {
  /// `true` is `.bool(true)`.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
  /// `3` is `.integer(3)`.
  public init(integerLiteral value: Int) { self = .integer(Int64(value)) }
}

extension JSONValue: ExpressibleByFloatLiteral {
  /// `0.5` is `.number(0.5)`.
  public init(floatLiteral value: Double) { self = .number(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
  /// `"x"` is `.string("x")`.
  public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
  /// `[1, "x"]` is `.array([.number(1), .string("x")])`.
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
  /// `["a": 1]` is `.object(["a": .number(1)])`; a repeated key keeps its last value.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}
