import ConcordApp
import ConcordWire

extension SampleApp {
  /// The version of the app's actions, recorded with every entry. Version 2 spells each action
  /// as one member holding its value (`{"counter":{"increment":{}}}`,
  /// `{"note":{"id":1,"action":{"toggle":{}}}}`); version 1 wrapped values in `_0` and `_1`.
  public static let version = 2

  /// The JSON of an action written by version 1, as version 2 spells it.
  public static func migrate(_ action: JSONValue, from version: Int) throws -> JSONValue {
    guard version == 1 else { throw MigrationError(message: "no migration from version \(version)") }
    guard case let .object(members) = action, members.count == 1, let (name, value) = members.first,
      case var .object(payload) = value
    else { throw MigrationError(message: "a version 1 action is an object with one object member") }
    if let wrapped = payload.removeValue(forKey: "_0") { return .object([name: wrapped]) }
    if let noteAction = payload.removeValue(forKey: "_1") { payload["action"] = noteAction }
    return .object([name: .object(payload)])
  }
}

/// `{"counter":{"add":{"amount":5}}}`, `{"notes":{"remove":{"id":1}}}`,
/// `{"note":{"id":1,"action":{"edit":{"text":"oat milk"}}}}`,
/// `{"attached":{"window":"w-1","scope":"notes"}}`, `{"detached":{…}}`, `{"booted":{}}`.
extension SampleApp.Action: Codable {
  private enum Case: String, CodingKey, CaseIterable {
    case counter, notes, note, attached, detached, booted
  }

  private enum Field: String, CodingKey {
    case id, action
  }

  public init(from decoder: any Decoder) throws {
    let (container, key) = try ActionCase.read(Case.self, from: decoder)
    switch key {
    case .counter: self = .counter(try container.decode(SampleApp.CounterAction.self, forKey: key))
    case .notes: self = .notes(try container.decode(SampleApp.NotesAction.self, forKey: key))
    case .note:
      let fields = try container.nestedContainer(keyedBy: Field.self, forKey: key)
      self = .note(id: try fields.decode(Int.self, forKey: .id), try fields.decode(SampleApp.NoteAction.self, forKey: .action))
    case .attached:
      let window = try WindowScope(from: container.superDecoder(forKey: key))
      self = .attached(window: window.window, scope: window.scope)
    case .detached:
      let window = try WindowScope(from: container.superDecoder(forKey: key))
      self = .detached(window: window.window, scope: window.scope)
    case .booted:
      _ = try container.nestedContainer(keyedBy: Field.self, forKey: key)
      self = .booted
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Case.self)
    switch self {
    case let .counter(action): try container.encode(action, forKey: .counter)
    case let .notes(action): try container.encode(action, forKey: .notes)
    case let .note(id, action):
      var fields = container.nestedContainer(keyedBy: Field.self, forKey: .note)
      try fields.encode(id, forKey: .id)
      try fields.encode(action, forKey: .action)
    case let .attached(window, scope):
      try container.encode(WindowScope(window: window, scope: scope), forKey: .attached)
    case let .detached(window, scope):
      try container.encode(WindowScope(window: window, scope: scope), forKey: .detached)
    case .booted: _ = container.nestedContainer(keyedBy: Field.self, forKey: .booted)
    }
  }

  /// The value of `attached` and `detached`.
  private struct WindowScope: Codable {
    var window: String
    var scope: String
  }
}

// One example of each action, for the windows of an app that gives them no words (`help`).
extension SampleApp.CounterAction: ActionExamples {
  public static let examples: [Self] = [.increment, .decrement, .add(amount: 5)]
}

extension SampleApp.NotesAction: ActionExamples {
  public static let examples: [Self] = [.add(text: "buy milk"), .addLater(text: "call back", milliseconds: 1000), .remove(id: 1)]
}

extension SampleApp.NoteAction: ActionExamples {
  public static let examples: [Self] = [.edit(text: "buy oat milk"), .toggle]
}
