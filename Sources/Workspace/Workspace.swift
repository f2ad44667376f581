import CasePaths
import Concord
import Foundation

/// Workspace: the collaborative task board with chat, presence and reminders that ships with
/// Concord, hosted by `concordd` and used through `concord attach` windows.
///
/// Each feature is its own reducer — ``Board`` (with undo), ``Chat``, ``Presence``,
/// ``Reminders``, ``Activity`` — and the app is their composition, below. The daemon hosts it
/// as ``hosted``; windows show it through ``client``.
///
/// ```swift
/// let store = Store(initialState: Workspace.State(), reducer: Workspace.reducer, environment: .live)
/// await store.send(.board(Authored(user: "alice", at: .now, .addCard(title: "Fix login", column: nil))))
/// ```
public enum Workspace {
  /// The application's name as recorded in the log.
  public static let name = "workspace"
  /// The version of its actions and state, recorded with every entry. Version 2 spells actions
  /// as `schema/workspace.schema.json` publishes them; version 3 adds dismissing a reminder
  /// (its state remembers reminders put away); version 4 has the same actions, and its board
  /// keeps the words of its last change, so that undo and redo say what they took back or put
  /// back. Entries of version 1 are read through ``migrate(_:from:)``; those of versions 2 and 3
  /// are version 4's as they are (a new version makes the snapshots of the old one unused, so
  /// the state is folded again with the new words).
  public static let version = 4

  public struct State: Codable, Equatable, Sendable {
    public var board: History<Board>
    public var chat: Chat
    public var presence: Presence
    public var reminders: Reminders
    public var activity: Activity

    public init(board: Board = Board(), chat: Chat = Chat()) {
      self.board = History(board, maxDepth: Board.undoDepth)
      self.chat = chat
      self.presence = Presence()
      self.reminders = Reminders()
      self.activity = Activity()
    }
  }

  /// What happens in the workspace: each case a single-key JSON object (``Action/init(from:)``),
  /// such as `{"board":{"user":"alice","at":"2026-12-01T09:30:00.000Z","action":{"undo":{}}}}`.
  @CasePathable
  public enum Action: Equatable, Sendable {
    case board(Authored<BoardAction>)
    case chat(Authored<ChatAction>)
    case presence(PresenceAction)
    case reminders(ReminderAction)
    /// The daemon started and replayed its log: windows from before are gone, and reminders
    /// must be set again (effects never run during replay).
    case booted
  }

  /// What the reducers use but must not make themselves: time, for the reminders' timers.
  public struct Environment: Sendable {
    public var clock: any Clock<Duration>
    /// The wall clock, to turn a due date into a wait on `clock`.
    public var now: @Sendable () -> Date

    public init(clock: any Clock<Duration>, now: @escaping @Sendable () -> Date) {
      self.clock = clock
      self.now = now
    }

    public static var live: Environment { Environment(clock: ContinuousClock(), now: { Date() }) }
  }

  /// The whole app: the features side by side, then what follows from every change — due
  /// cards get their reminders, and the activity feed tells what happened.
  public static let reducer: Reducer<State, Action, Environment> = Reducer.combine(
    Board.undoable.pullback(state: \.board, action: \.board, environment: { _ in () }),
    Chat.reducer.pullback(state: \.chat, action: \.chat, environment: { _ in () }),
    Presence.reducer.pullback(state: \.presence, action: \.presence, environment: { _ in () }),
    Reminders.reducer,
    lifecycle
  )
  .remindingOfDueCards()
  .recordingActivity()

  /// What the daemon's lifecycle means to the features: a restart clears presence and sets
  /// the reminders again; whoever opens a window joins the board.
  static let lifecycle = Reducer<State, Action, Environment> { state, action, environment in
    switch action {
    case .booted:
      _ = Presence.reducer.reduce(into: &state.presence, action: .cleared, environment: ())
      return Reminders.setAll(state, environment: environment)
    case let .presence(.attached(_, user, _, at)):
      return Board.undoable.reduce(into: &state.board, action: Authored(user: user, at: at, .join(user: user)), environment: ())
        .map { Action.board($0) }
    default:
      return .none
    }
  }
}
