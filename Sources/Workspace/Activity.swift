import Concord
import Foundation

/// The feed of what happened: one line per change, derived from each applied action and the
/// state around it, so the log's actions replay into the same feed.
public struct Activity: Codable, Equatable, Sendable {
  /// Oldest first; at most ``limit``.
  public var items: [ActivityItem]

  public init() { items = [] }

  public static let limit = 200

  mutating func append(_ item: ActivityItem) {
    items.append(item)
    if items.count > Self.limit { items.removeFirst(items.count - Self.limit) }
  }
}

/// One line of the feed. Dates stay dates (not text), so each window shows them in its own
/// time zone.
public struct ActivityItem: Codable, Equatable, Sendable {
  /// When it happened; nil for the app's own doings, such as a reminder.
  public var at: Date?
  /// Who did it; nil for the app itself.
  public var user: String?
  /// What happened, after the user's name: "moved #3 Fix login from todo to doing".
  public var text: String
  /// A date the line speaks of, such as a due date.
  public var date: Date?

  public init(at: Date?, user: String?, text: String, date: Date? = nil) {
    self.at = at
    self.user = user
    self.text = text
    self.date = date
  }
}

extension Reducer where State == Workspace.State, Action == Workspace.Action, Environment == Workspace.Environment {
  /// Adds a line to the activity feed for each applied action that changed something.
  func recordingActivity() -> Reducer {
    Reducer { state, action, environment in
      let before = state
      let effect = reduce(into: &state, action: action, environment: environment)
      guard effect.refusal == nil, let item = Activity.describe(action, before: before, after: state) else { return effect }
      state.activity.append(item)
      return effect
    }
  }
}

extension Activity {
  /// The feed's line for an action, or nil for one not worth a line (a window attaching).
  static func describe(_ action: Workspace.Action, before: Workspace.State, after: Workspace.State) -> ActivityItem? {
    switch action {
    case let .board(authored):
      return describe(authored, before: before.board.present, after: after.board.present)
    case let .chat(authored):
      let text: String
      switch authored.action {
      case let .say(channel, said): text = "in \(channel): \(said.count > 60 ? String(said.prefix(59)) + "…" : said)"
      case let .edit(channel, message, _): text = "edited message \(message) in \(channel)"
      case let .delete(channel, message): text = "deleted message \(message) in \(channel)"
      case let .createChannel(name): text = "opened the channel \(name)"
      }
      return ActivityItem(at: authored.at, user: authored.user, text: text)
    case let .presence(.attached(_, user, _, at)) where !before.board.present.people.contains(user):
      return ActivityItem(at: at, user: user, text: "joined the workspace")
    case let .reminders(.raise(card, due)) where after.reminders.raised.count > before.reminders.raised.count:
      let title = after.board.present.cards[id: card]?.title ?? ""
      return ActivityItem(at: nil, user: nil, text: "#\(card) \(title) is due", date: due)
    default:
      return nil
    }
  }

  static func describe(_ authored: Authored<BoardAction>, before: Board, after: Board) -> ActivityItem? {
    func card(_ id: Int) -> String { "#\(id) \(after.cards[id: id]?.title ?? before.cards[id: id]?.title ?? "")" }
    var date: Date?
    let text: String
    switch authored.action {
    case .addCard:
      guard let added = after.cards.last else { return nil }
      text = "added \(card(added.id)) to \(after.columnName(of: added))"
    case let .editCard(id, _, _): text = "edited \(card(id))"
    case let .moveCard(id, _, _):
      guard let was = before.cards[id: id], let now = after.cards[id: id] else { return nil }
      let (from, to) = (before.columnName(of: was), after.columnName(of: now))
      text = from == to ? "moved \(card(id)) within \(to)" : "moved \(card(id)) from \(from) to \(to)"
    case let .assign(id, user): text = user.map { "assigned \(card(id)) to \($0)" } ?? "unassigned \(card(id))"
    case let .label(id, label): text = "labelled \(card(id)) \(label.lowercased())"
    case let .unlabel(id, label): text = "took the label \(label.lowercased()) off \(card(id))"
    case let .setDue(id, due):
      date = due
      text = due == nil ? "cleared the due date of \(card(id))" : "set \(card(id)) due"
    case let .archive(id): text = "archived \(card(id))"
    case let .restore(id): text = "restored \(card(id))"
    case let .addColumn(name, _): text = "added the column \(name)"
    case let .renameColumn(name, newName): text = "renamed the column \(name) to \(newName)"
    case let .moveColumn(name, position): text = "moved the column \(name) to position \(position)"
    case let .limitColumn(name, limit): text = limit.map { "limited \(name) to \($0) cards" } ?? "lifted the limit of \(name)"
    case let .removeColumn(name): text = "removed the column \(name)"
    case let .invite(user): text = "invited \(user)"
    case .join: return nil
    case .undo: text = "undid their last change"
    case .redo: text = "redid their change"
    }
    return ActivityItem(at: authored.at, user: authored.user, text: text, date: date)
  }
}
