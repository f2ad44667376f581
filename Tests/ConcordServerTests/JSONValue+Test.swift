import ConcordWire

/// Reading the JSON the daemon sends, in tests.
extension JSONValue {
  subscript(key: String) -> JSONValue? {
    if case let .object(object) = self { object[key] } else { nil }
  }

  var array: [JSONValue]? {
    if case let .array(array) = self { array } else { nil }
  }

  var string: String? {
    if case let .string(string) = self { string } else { nil }
  }

  var arrayCount: Int? { array?.count }

  func arrayElement(_ index: Int) -> JSONValue? {
    guard let array, array.indices.contains(index) else { return nil }
    return array[index]
  }
}
