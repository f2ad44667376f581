extension DiffOperation {
  /// Applies this one operation to `state` in place; the error says what did not fit, without
  /// the operation (`StateDiff.apply` adds it).
  func apply(to state: inout JSONValue) throws(DiffError) {
    switch self {
    case let .set(path, value):
      guard let last = path.last else {
        state = value
        return
      }
      try Self.modify(&state, path: path, end: path.count - 1) { (parent: inout JSONValue) throws(DiffError) in
        try Self.set(value, at: last, in: &parent, parentPath: path.dropLast())
      }
    case let .remove(path):
      guard let last = path.last else { throw DiffError("the state itself cannot be removed") }
      try Self.modify(&state, path: path, end: path.count - 1) { (parent: inout JSONValue) throws(DiffError) in
        try Self.remove(last, from: &parent, parentPath: path.dropLast())
      }
    case let .move(path, after):
      guard case let .id(id) = path.last else {
        throw DiffError(#"a move needs a path that ends in an element id, like ["cards",{"id":7}]"#)
      }
      try Self.modify(&state, path: path, end: path.count - 1) { (parent: inout JSONValue) throws(DiffError) in
        try Self.withArray(&parent, at: path.dropLast()) { (array: inout [JSONValue]) throws(DiffError) in
          try Self.move(id, after: after, in: &array, arrayPath: path.dropLast())
        }
      }
    case let .append(path, values):
      try Self.modify(&state, path: path, end: path.count) { (target: inout JSONValue) throws(DiffError) in
        try Self.withArray(&target, at: path[...]) { (array: inout [JSONValue]) throws(DiffError) in
          array.append(contentsOf: values)
        }
      }
    case let .truncate(path, count):
      try Self.modify(&state, path: path, end: path.count) { (target: inout JSONValue) throws(DiffError) in
        try Self.withArray(&target, at: path[...]) { (array: inout [JSONValue]) throws(DiffError) in
          guard count >= 0, count <= array.count else {
            throw DiffError("\(PathComponent.describe(path)) has \(array.count) elements, cannot keep \(count)")
          }
          array.removeLast(array.count - count)
        }
      }
    }
  }

  /// Runs `body` on the value at `path[..<end]` inside `value`, in place. The whole path comes
  /// along so that a message can name the prefix where the walk stopped.
  private static func modify(
    _ value: inout JSONValue, path: [PathComponent], depth: Int = 0, end: Int,
    _ body: (inout JSONValue) throws(DiffError) -> Void
  ) throws(DiffError) {
    guard depth < end else { return try body(&value) }
    let here = path[..<depth]
    switch path[depth] {
    case let .key(key):
      try withObject(&value, at: here) { (object: inout [String: JSONValue]) throws(DiffError) in
        guard object[key] != nil else { throw DiffError("\(PathComponent.describe(here)) has no key \(quoted(key))") }
        try modify(&object[key]!, path: path, depth: depth + 1, end: end, body)
      }
    case let .index(index):
      try withArray(&value, at: here) { (array: inout [JSONValue]) throws(DiffError) in
        let position = try checkedIndex(index, in: array, at: here)
        try modify(&array[position], path: path, depth: depth + 1, end: end, body)
      }
    case let .id(id):
      try withArray(&value, at: here) { (array: inout [JSONValue]) throws(DiffError) in
        let position = try checkedPosition(of: id, in: array, at: here)
        try modify(&array[position], path: path, depth: depth + 1, end: end, body)
      }
    }
  }

  private static func set(
    _ newValue: JSONValue, at component: PathComponent, in parent: inout JSONValue,
    parentPath: ArraySlice<PathComponent>
  ) throws(DiffError) {
    switch component {
    case let .key(key):
      try withObject(&parent, at: parentPath) { (object: inout [String: JSONValue]) throws(DiffError) in
        object[key] = newValue
      }
    case let .index(index):
      try withArray(&parent, at: parentPath) { (array: inout [JSONValue]) throws(DiffError) in
        array[try checkedIndex(index, in: array, at: parentPath)] = newValue
      }
    case let .id(id):
      // The new element must carry the id it is set under, or the next operation that looks
      // it up by that id would not find it.
      guard ElementID(of: newValue) == id else {
        throw DiffError("the element set under id \(id) is not an object with \"id\": \(id)")
      }
      try withArray(&parent, at: parentPath) { (array: inout [JSONValue]) throws(DiffError) in
        if let position = array.firstIndex(where: { ElementID(of: $0) == id }) {
          array[position] = newValue
        } else {
          array.append(newValue)
        }
      }
    }
  }

  private static func remove(
    _ component: PathComponent, from parent: inout JSONValue, parentPath: ArraySlice<PathComponent>
  ) throws(DiffError) {
    switch component {
    case let .key(key):
      try withObject(&parent, at: parentPath) { (object: inout [String: JSONValue]) throws(DiffError) in
        guard object.removeValue(forKey: key) != nil else {
          throw DiffError("\(PathComponent.describe(parentPath)) has no key \(quoted(key))")
        }
      }
    case let .index(index):
      try withArray(&parent, at: parentPath) { (array: inout [JSONValue]) throws(DiffError) in
        array.remove(at: try checkedIndex(index, in: array, at: parentPath))
      }
    case let .id(id):
      try withArray(&parent, at: parentPath) { (array: inout [JSONValue]) throws(DiffError) in
        array.remove(at: try checkedPosition(of: id, in: array, at: parentPath))
      }
    }
  }

  private static func move(
    _ id: ElementID, after: ElementID?, in array: inout [JSONValue], arrayPath: ArraySlice<PathComponent>
  ) throws(DiffError) {
    guard after != id else { throw DiffError("element \(id) cannot be moved after itself") }
    let element = array.remove(at: try checkedPosition(of: id, in: array, at: arrayPath))
    guard let after else { return array.insert(element, at: 0) }
    array.insert(element, at: try checkedPosition(of: after, in: array, at: arrayPath) + 1)
  }

  // MARK: - Access with readable errors

  /// Runs `body` on the object `value` holds, in place: `value` is emptied for the duration so
  /// the dictionary is not shared and mutating it does not copy it.
  private static func withObject(
    _ value: inout JSONValue, at path: ArraySlice<PathComponent>,
    _ body: (inout [String: JSONValue]) throws(DiffError) -> Void
  ) throws(DiffError) {
    guard case var .object(object) = value else {
      throw DiffError("\(PathComponent.describe(path)) is \(kind(of: value)), not an object")
    }
    value = .null
    defer { value = .object(object) }
    try body(&object)
  }

  /// Runs `body` on the array `value` holds, in place (see `withObject`).
  private static func withArray(
    _ value: inout JSONValue, at path: ArraySlice<PathComponent>,
    _ body: (inout [JSONValue]) throws(DiffError) -> Void
  ) throws(DiffError) {
    guard case var .array(array) = value else {
      throw DiffError("\(PathComponent.describe(path)) is \(kind(of: value)), not an array")
    }
    value = .null
    defer { value = .array(array) }
    try body(&array)
  }

  private static func checkedIndex(
    _ index: Int, in array: [JSONValue], at path: ArraySlice<PathComponent>
  ) throws(DiffError) -> Int {
    guard array.indices.contains(index) else {
      throw DiffError("\(PathComponent.describe(path)) has no index \(index) (it has \(array.count) elements)")
    }
    return index
  }

  private static func checkedPosition(
    of id: ElementID, in array: [JSONValue], at path: ArraySlice<PathComponent>
  ) throws(DiffError) -> Int {
    guard let position = array.firstIndex(where: { ElementID(of: $0) == id }) else {
      throw DiffError("\(PathComponent.describe(path)) has no element with id \(id)")
    }
    return position
  }

  private static func kind(of value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .bool: "a boolean"
    case .integer, .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  private static func quoted(_ key: String) -> String {
    var text = ""
    JSONValue.writeString(key, to: &text)
    return text
  }
}
