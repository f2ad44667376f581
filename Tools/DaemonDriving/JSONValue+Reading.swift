import ConcordWire

/// Reading the JSON the daemon sends, in tests.
extension JSONValue {
  public subscript(key: String) -> JSONValue? {
    if case let .object(object) = self { object[key] } else { nil }
  }

  public var array: [JSONValue]? {
    if case let .array(array) = self { array } else { nil }
  }

  public var string: String? {
    if case let .string(string) = self { string } else { nil }
  }

  public var arrayCount: Int? { array?.count }

  public func arrayElement(_ index: Int) -> JSONValue? {
    guard let array, array.indices.contains(index) else { return nil }
    return array[index]
  }
}
