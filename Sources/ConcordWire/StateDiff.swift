/// The change from one state to the next, small when one element of a large collection changes.
///
/// The daemon sends a window the diff between the scope's state before and after an action;
/// the window applies it to its copy. Arrays whose elements all carry a unique `"id"` are
/// diffed by id, so moving, inserting or editing one card of a long list costs a few
/// operations, not the list.
///
/// ```swift
/// let old: JSONValue = ["title": "Board", "cards": [["id": 1, "done": false], ["id": 2, "done": false]]]
/// let new: JSONValue = ["title": "Board", "cards": [["id": 2, "done": false], ["id": 1, "done": true]]]
/// let diff = StateDiff.between(old, new)
/// // [{"op":"set","path":["cards",{"id":1},"done"],"value":true},
/// //  {"after":2,"op":"move","path":["cards",{"id":1}]}]
/// try diff.apply(to: old) == new   // true
/// ```
///
/// On the wire a diff is the JSON array of its operations (see `DiffOperation`).
public struct StateDiff: Sendable, Equatable, Codable {
  /// The operations, applied in order.
  public var operations: [DiffOperation]

  public init(operations: [DiffOperation] = []) {
    self.operations = operations
  }

  /// Whether the diff changes nothing.
  public var isEmpty: Bool { operations.isEmpty }

  /// Applies the diff; throws DiffError when the diff does not fit the state (a path that does
  /// not exist, etc).
  ///
  /// The result is either the whole new state or an error, never a state changed halfway: a
  /// window that gets an error still holds the state it had, and asks for a fresh one.
  ///
  /// ```swift
  /// let diff = StateDiff(operations: [.set(path: ["count"], value: 2)])
  /// try diff.apply(to: ["count": 1])   // ["count": 2]
  /// ```
  public func apply(to state: JSONValue) throws(DiffError) -> JSONValue {
    var result = state
    for (index, operation) in operations.enumerated() {
      do {
        try operation.apply(to: &result)
      } catch {
        let target = PathComponent.describe(operation.path)
        throw DiffError("operation \(index + 1) of \(operations.count) (\(operation.name) \(target)): \(error.message)")
      }
    }
    return result
  }

  /// The size in bytes of the diff's JSON text, to decide whether a full reset is cheaper.
  ///
  /// ```swift
  /// let diff = StateDiff.between(old, new)
  /// if diff.encodedSize > new.jsonText.utf8.count { /* send the whole state instead */ }
  /// ```
  public var encodedSize: Int { jsonValue.jsonTextByteCount }

  /// The diff's JSON text, as an update carries it.
  public var jsonText: String { jsonValue.jsonText }

  /// The diff as it is written on the wire: the array of its operations.
  var jsonValue: JSONValue { .array(operations.map(\.jsonValue)) }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    operations = try container.decode([DiffOperation].self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(operations)
  }
}
