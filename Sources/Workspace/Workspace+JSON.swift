import ConcordApp
import ConcordWire
import Foundation

/// The JSON of a Workspace action, as `schema/workspace.schema.json` publishes it: an object
/// with one member named for the case, holding the case's value itself.
///
/// ```json
/// {"board":{"user":"alice","at":"2026-12-01T09:30:00.000Z","action":{"moveCard":{"id":2,"column":"done"}}}}
/// {"presence":{"detached":{"window":"w-1","scope":"board"}}}
/// {"booted":{}}
/// ```
extension Workspace.Action: Codable {
  private enum Case: String, CodingKey, CaseIterable {
    case board, chat, presence, reminders, booted
  }

  public init(from decoder: any Decoder) throws {
    let (container, key) = try ActionCase.read(Case.self, from: decoder)
    switch key {
    case .board: self = .board(try container.decode(Authored<BoardAction>.self, forKey: key))
    case .chat: self = .chat(try container.decode(Authored<ChatAction>.self, forKey: key))
    case .presence: self = .presence(try container.decode(PresenceAction.self, forKey: key))
    case .reminders: self = .reminders(try container.decode(ReminderAction.self, forKey: key))
    case .booted:
      _ = try container.nestedContainer(keyedBy: Case.self, forKey: key)
      self = .booted
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Case.self)
    switch self {
    case let .board(action): try container.encode(action, forKey: .board)
    case let .chat(action): try container.encode(action, forKey: .chat)
    case let .presence(action): try container.encode(action, forKey: .presence)
    case let .reminders(action): try container.encode(action, forKey: .reminders)
    case .booted: _ = container.nestedContainer(keyedBy: Case.self, forKey: .booted)
    }
  }
}

extension Workspace {
  /// The JSON of an action written by an earlier version, as this version spells it.
  ///
  /// Version 1 wrapped each case's value in `{"_0":…}` and wrote dates as seconds since
  /// 2001-01-01 (a number under the keys `at` and `due`). Its dates become timestamps rounded to
  /// the millisecond, the precision of version 2: replaying a version 1 log rebuilds its state
  /// with its dates to the millisecond.
  ///
  /// - Throws: for a version this one cannot read.
  public static func migrate(_ action: JSONValue, from version: Int) throws -> JSONValue {
    // Version 3 only added an action, and version 4 only state: version 2's and 3's are its own.
    if version == 2 || version == 3 { return action }
    guard version == 1 else { throw MigrationError(message: "no migration from version \(version)") }
    guard case let .object(members) = action, members.count == 1, let (name, value) = members.first else {
      throw MigrationError(message: "a version 1 action is an object with one member")
    }
    var payload = value
    if case let .object(wrapped) = value, wrapped.count == 1, let inner = wrapped["_0"] { payload = inner }
    return .object([name: try datesOfVersion1(in: payload)])
  }

  /// `value` with each number under a key `at` or `due` written as a version 2 date.
  private static func datesOfVersion1(in value: JSONValue) throws -> JSONValue {
    switch value {
    case let .object(members):
      var converted = members
      for (key, member) in members {
        if key == "at" || key == "due", let seconds = secondsOfVersion1(member) {
          converted[key] = .string(try JSONDate.text(Date(timeIntervalSinceReferenceDate: seconds)))
        } else {
          converted[key] = try datesOfVersion1(in: member)
        }
      }
      return .object(converted)
    case let .array(elements):
      return .array(try elements.map(datesOfVersion1))
    default:
      return value
    }
  }

  private static func secondsOfVersion1(_ value: JSONValue) -> Double? {
    switch value {
    case let .integer(seconds): Double(seconds)
    case let .number(seconds): seconds
    default: nil
    }
  }
}

// The daemon encodes a changed scope's whole state after every action; an action changes one
// card, column or message, and the others' JSON is taken from the last encode (`EncodeMemo`).
// Their `==` is the compiler's, over every stored property, so equal values encode alike.
extension Card: MemoizedEncodable {}
extension ColumnView: MemoizedEncodable {}
extension Message: MemoizedEncodable {}
// Every window watches who is present; a window coming or going changes one entry of it.
extension PresentWindow: MemoizedEncodable {}
// A line of the feed has no id: it is filed by itself. The feed is encoded after every action
// (its scope is held to the line limit whether or not a window shows it), one line new each time.
extension ActivityItem: MemoizedEncodable {
  public var memoKey: ActivityItem { self }
}
