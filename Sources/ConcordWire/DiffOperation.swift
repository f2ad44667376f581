/// One step of a `StateDiff`.
///
/// Every operation names the place it changes with a path (see `PathComponent`). On the wire
/// an operation is an object with an `"op"` field, one per case; here as `jsonText` writes
/// them, keys sorted (a reader takes the fields in any order, and ignores ones it does not know):
///
/// ```json
/// {"op":"set","path":["columns",{"id":"todo"},"title"],"value":"To do"}
/// {"op":"remove","path":["columns",{"id":"todo"},"cards",{"id":7}]}
/// {"after":3,"op":"move","path":["cards",{"id":7}]}
/// {"after":null,"op":"move","path":["cards",{"id":9}]}
/// {"op":"append","path":["log"],"values":["saved",42]}
/// {"count":2,"op":"truncate","path":["log"]}
/// ```
///
/// The first line, written in Swift:
///
/// ```swift
/// DiffOperation.set(path: ["columns", .id("todo"), "title"], value: "To do")
/// ```
public enum DiffOperation: Sendable, Equatable, Codable, CustomStringConvertible {
  /// Puts `value` at `path`. The path's last component says where: an object key is added or
  /// replaced; an array index must exist and is replaced; an element id replaces the element
  /// with that id, or appends `value` when there is none (its `"id"` must be that id). The
  /// empty path replaces the whole state.
  case set(path: [PathComponent], value: JSONValue)
  /// Removes the object key, array index or keyed element the path ends in; it must exist.
  case remove(path: [PathComponent])
  /// Moves the keyed element the path ends in so that it comes right after the element with
  /// id `after`, or first when `after` is nil.
  case move(path: [PathComponent], after: ElementID?)
  /// Appends `values` to the array at `path`.
  case append(path: [PathComponent], values: [JSONValue])
  /// Keeps the first `count` elements of the array at `path`, which has at least that many.
  case truncate(path: [PathComponent], count: Int)

  /// The place the operation changes.
  public var path: [PathComponent] {
    switch self {
    case let .set(path, _), let .remove(path), let .move(path, _), let .append(path, _),
      let .truncate(path, _):
      path
    }
  }

  /// The `"op"` name: `set`, `remove`, `move`, `append` or `truncate`.
  public var name: String {
    switch self {
    case .set: "set"
    case .remove: "remove"
    case .move: "move"
    case .append: "append"
    case .truncate: "truncate"
    }
  }

  /// The operation's JSON text, as it goes on the wire.
  public var description: String { jsonValue.jsonText }

  /// The operation as it is written on the wire.
  var jsonValue: JSONValue {
    var object: [String: JSONValue] = ["op": .string(name), "path": .array(path.map(\.jsonValue))]
    switch self {
    case let .set(_, value): object["value"] = value
    case .remove: break
    case let .move(_, after): object["after"] = after?.jsonValue ?? .null
    case let .append(_, values): object["values"] = .array(values)
    case let .truncate(_, count): object["count"] = .integer(Int64(count))
    }
    return .object(object)
  }

  /// Reads an operation as it is written on the wire. Unknown fields are ignored, so that a
  /// newer peer may add some; a missing or malformed field is an error.
  init(jsonValue value: JSONValue) throws(DiffError) {
    guard case let .object(object) = value else {
      throw DiffError("an operation is a JSON object, not \(value.jsonText)")
    }
    guard case let .string(name) = object["op"] else {
      throw DiffError("an operation needs an \"op\" string: \(value.jsonText)")
    }
    guard case let .array(pathValues) = object["path"] else {
      throw DiffError("an operation needs a \"path\" array: \(value.jsonText)")
    }
    var path: [PathComponent] = []
    for component in pathValues {
      path.append(try PathComponent(jsonValue: component))
    }
    func field(_ key: String) throws(DiffError) -> JSONValue {
      guard let field = object[key] else { throw DiffError("a \(name) operation needs \"\(key)\": \(value.jsonText)") }
      return field
    }
    switch name {
    case "set":
      self = .set(path: path, value: try field("value"))
    case "remove":
      self = .remove(path: path)
    case "move":
      let after = try field("after")
      if after == .null {
        self = .move(path: path, after: nil)
      } else if let id = ElementID(after) {
        self = .move(path: path, after: id)
      } else {
        throw DiffError("\"after\" is an element id (a string or a number) or null, not \(after.jsonText)")
      }
    case "append":
      guard case let .array(values) = try field("values") else {
        throw DiffError("\"values\" of an append is an array: \(value.jsonText)")
      }
      self = .append(path: path, values: values)
    case "truncate":
      guard let count = try field("count").int64, count >= 0
      else {
        throw DiffError("\"count\" of a truncate is a whole number from 0: \(value.jsonText)")
      }
      self = .truncate(path: path, count: Int(count))
    default:
      throw DiffError("unknown operation \"\(name)\"; the operations are set, remove, move, append, truncate")
    }
  }

  public init(from decoder: any Decoder) throws {
    let value = try JSONValue(from: decoder)
    do {
      self = try DiffOperation(jsonValue: value)
    } catch {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    try jsonValue.encode(to: encoder)
  }
}
