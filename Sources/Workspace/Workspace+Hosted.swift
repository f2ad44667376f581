import ConcordApp
import Foundation

extension Workspace {
  /// Workspace as `concordd` hosts it: its scopes, and what the daemon's lifecycle means to it.
  ///
  /// Scopes: `board`, `column:NAME`, `card:ID`, `chat:NAME`, `presence` and `activity`
  /// (the last two read only). Every action a window sends is signed by the daemon with the
  /// window's user and the time it was taken (``Authored``).
  public static func hosted(environment: Environment = .live) -> HostedApp<State, Action> {
    var app = HostedApp(
      name: name, version: version, initialState: State(), reducer: reducer, environment: environment,
      admission: admission,
      scopes: [
        .scope("board", state: { BoardView($0) }, lift: { $1.lift(into: &$0) }) { origin, action in
          .board(Authored(origin, action))
        },
        .scope(
          "column", parameter: { $0 }, placeholder: "NAME",
          state: { state, name in
            state.board.present.column(named: name).map { ColumnView($0, on: state.board.present, alone: true) }
          },
          lift: { $2.lift(into: &$0) }
        ) { (name: String, origin, action: ColumnAction) in
          .board(Authored(origin, action.boardAction(column: name)))
        },
        .scope(
          "card", parameter: Card.number, placeholder: "ID",
          state: { state, id in state.board.present.cards[id: id].map { CardView($0, in: state) } },
          lift: { $2.lift(into: &$0) }
        ) { (id: Int, origin, action: CardAction) in
          .board(Authored(origin, action.boardAction(card: id)))
        },
        .scope(
          "chat", parameter: { $0 }, placeholder: "NAME",
          state: { state, name in state.chat.channels[id: name].map { ChannelView($0, in: state) } },
          lift: { $2.lift(into: &$0) }
        ) { (name: String, origin, action: ChannelAction) in
          .chat(Authored(origin, action.chatAction(channel: name)))
        },
        .readOnly("presence") { $0.presence },
        .readOnly("activity") { ActivityView($0.activity) },
      ],
      lifecycle: AppLifecycle(
        booted: .booted,
        windowAttached: { .presence(.attached(window: $0.window, user: $0.user, scope: $0.scope, at: $0.at)) },
        windowDetached: { .presence(.detached(window: $0.window, scope: $0.scope)) }),
      migrateAction: migrate)
    // The inspector says what an entry did as the activity feed does.
    app.describeLogged = { action, before, after in
      Activity.describe(action, before: Activity.Before(action, before), after: after)?.text
    }
    return app
  }
}

extension Authored {
  /// The action as the daemon took it from a window: signed with the window's user and time.
  init(_ origin: ActionOrigin, _ action: Action) {
    self.init(user: origin.user, at: origin.at, action)
  }
}
