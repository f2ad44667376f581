import ConcordWire

/// An action type that shows people one example of each of its cases. A window with no words
/// for its scope lists them in `help` and names them when a JSON action is not one of them.
/// An enum without values gets this for nothing by being `CaseIterable`.
///
/// ```swift
/// enum ListAction: Codable, ActionExamples {
///   case add(name: String, quantity: Int)
///   case remove(id: Int)
///   static let examples: [ListAction] = [.add(name: "milk", quantity: 2), .remove(id: 1)]
/// }
/// ```
public protocol ActionExamples {
  /// One value of each case, as a person would send it.
  static var examples: [Self] { get }
}

/// The examples of a scope's action type, as the JSON a person types.
enum ActionExampleJSON {
  /// `Action`'s examples, when it has them (``ActionExamples``, or every case of a
  /// `CaseIterable` type), as JSON; empty when it has none or they cannot be encoded.
  static func of<Action>(_ type: Action.Type) -> [JSONValue] {
    if let type = type as? any (ActionExamples & Encodable).Type { return examples(of: type) }
    if let type = type as? any (CaseIterable & Encodable).Type { return allCases(of: type) }
    return []
  }

  private static func examples<T: ActionExamples & Encodable>(of type: T.Type) -> [JSONValue] {
    type.examples.compactMap { try? JSONValue(encoding: $0) }
  }

  private static func allCases<T: CaseIterable & Encodable>(of type: T.Type) -> [JSONValue] {
    type.allCases.compactMap { try? JSONValue(encoding: $0) }
  }

  /// The case an action's JSON names: its one member's name (`add` in `{"add":{…}}`).
  static func caseName(of action: JSONValue) -> String? {
    guard case let .object(members) = action, members.count == 1 else { return nil }
    return members.keys.first
  }
}
