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
public struct ActivityItem: Codable, Hashable, Sendable {
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
      // Only what the line needs is read before: a copy of the state held across the reduction
      // would make every action copy whatever it changes.
      let before = Activity.Before(action, state)
      let effect = reduce(into: &state, action: action, environment: environment)
      guard effect.refusal == nil, let item = Activity.describe(action, before: before, after: state) else { return effect }
      state.activity.append(item)
      // The board keeps the words of its last change in the history's present, so that undo
      // and redo can say which change they took back or put back; and, once undone, the words
      // of the change redo would put back (a window's view holds no history to find them in).
      if case let .board(authored) = action {
        switch authored.action {
        case .undo:
          let undone = state.board.future.first?.lastChange
          state.board.amendPresent { $0.lastUndone = undone }
        case .redo:
          state.board.amendPresent { $0.lastUndone = nil }
        case let change where change.isUndoable:
          state.board.amendPresent {
            $0.lastChange = item.text
            $0.lastUndone = nil
          }
        default: break
        }
      }
      return effect
    }
  }
}

extension Activity {
  /// What the feed's line for an action needs of the state before it.
  struct Before {
    /// The title and column of the card the action is about.
    var card: (title: String, column: String)?
    /// Whether the person attaching had joined before.
    var hadJoined = false
    var raisedReminders = 0

    init(_ action: Workspace.Action, _ state: Workspace.State) {
      let board = state.board.present
      switch action {
      case let .board(authored):
        if let id = authored.action.cardID, let card = board.cards[id: id] { self.card = (card.title, board.columnName(of: card)) }
      case let .presence(.attached(_, user, _, _)): hadJoined = board.people.contains(user)
      case .reminders(.raise): raisedReminders = state.reminders.raised.count
      default: break
      }
    }
  }

  /// The feed's line for an action, or nil for one not worth a line (a window attaching).
  static func describe(_ action: Workspace.Action, before: Before, after: Workspace.State) -> ActivityItem? {
    switch action {
    case let .board(authored):
      switch authored.action {
      // The change taken back is the one redo would put back; the one put back is the present's.
      case .undo:
        return ActivityItem(at: authored.at, user: authored.user, text: Board.undid(after.board.future.first?.lastChange))
      case .redo:
        return ActivityItem(at: authored.at, user: authored.user, text: Board.redid(after.board.present.lastChange))
      default:
        return describe(authored, before: before, after: after.board.present)
      }
    case let .chat(authored):
      let text: String
      switch authored.action {
      // Cut here, not by a display helper: this text is state, and a replay must cut it alike.
      case let .say(channel, said): text = "in \(channel): \(said.count > 60 ? String(said.prefix(59)) + "…" : said)"
      case let .edit(channel, message, _): text = "edited message \(message) in \(channel)"
      case let .delete(channel, message): text = "deleted message \(message) in \(channel)"
      case let .createChannel(name): text = "opened the channel \(name)"
      }
      return ActivityItem(at: authored.at, user: authored.user, text: text)
    case let .presence(.attached(_, user, _, at)) where !before.hadJoined:
      return ActivityItem(at: at, user: user, text: "joined the workspace")
    case let .reminders(.raise(card, due)) where after.reminders.raised.count > before.raisedReminders:
      let title = after.board.present.cards[id: card]?.title ?? ""
      return ActivityItem(at: nil, user: nil, text: "#\(card) \(title) is due", date: due)
    default:
      return nil
    }
  }

  static func describe(_ authored: Authored<BoardAction>, before: Before, after: Board) -> ActivityItem? {
    func card(_ id: Int) -> String { "#\(id) \(after.cards[id: id]?.title ?? before.card?.title ?? "")" }
    var date: Date?
    let text: String
    switch authored.action {
    case .addCard:
      guard let added = after.cards.last else { return nil }
      text = "added \(card(added.id)) to \(after.columnName(of: added))"
    case let .editCard(id, _, _): text = "edited \(card(id))"
    case let .moveCard(id, _, _):
      guard let from = before.card?.column, let now = after.cards[id: id] else { return nil }
      let to = after.columnName(of: now)
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
    case .join, .dismissReminder: return nil
    case .undo: text = Board.undid(nil)
    case .redo: text = Board.redid(nil)
    }
    return ActivityItem(at: authored.at, user: authored.user, text: text, date: date)
  }
}

extension BoardAction {
  /// The card the action is about, if it is about one.
  var cardID: Int? {
    switch self {
    case let .editCard(id, _, _), let .moveCard(id, _, _), let .assign(id, _), let .label(id, _), let .unlabel(id, _),
      let .setDue(id, _), let .archive(id), let .restore(id), let .dismissReminder(id):
      id
    case .addCard, .addColumn, .renameColumn, .moveColumn, .limitColumn, .removeColumn, .invite, .join, .undo, .redo:
      nil
    }
  }
}
