import Concord
import ConcordApp
import ConcordWire
import Foundation
import PropertyRandom
import Testing

@testable import Workspace

/// A window shows an action the moment it is typed by lifting what it shows back into a state
/// and running the app's own reducer (`HostedApp.predict`). Two properties, for random boards
/// and chats built by what a team does, and every scope a window can be on:
///
/// - what a window shows, lifted and projected again with nothing pending, is what it showed
///   (the lift is the inverse of the projection);
/// - for each action whose outcome the scope's view holds enough to decide, the prediction is
///   exactly the state the daemon then sends: the daemon's own reducer on the whole state is the
///   model. The rest (undo and redo, which need the history; a card window's move, which needs
///   the other columns' cards) may differ until the daemon's answer mends the window, and are
///   counted, not compared.
@Suite struct PredictionProperties {
  typealias App = HostedApp<Workspace.State, Workspace.Action>

  @Test func theWindowPredictsWhatTheDaemonWillShow() throws {
    let app = Workspace.hosted()
    var compared = 0
    var counted = 0
    var changed = 0
    for seed in PropertyRandom.seeds(from: 0x9E_D1C7, count: 40) {
      var random = PropertyRandom(seed: seed)
      var state = app.initialState
      var clock = Date(timeIntervalSince1970: 1_790_000_000)
      for user in ["alice", "bob"] {
        Self.reduce(app, .presence(.attached(window: user, user: user, scope: "board", at: clock)), into: &state)
      }
      for step in 0..<random.int(20...80) {
        clock = clock.addingTimeInterval(Double(random.int(1...90_000)) / 1000)
        let origin = ActionOrigin(user: random.pick(["alice", "bob"]), window: "w", at: JSONDate.rounded(clock))
        let key = Self.scope(&random, in: state)
        let action = WorkspaceReplayProperties.action(&random, for: key, in: state)
        let context = "seed \(seed) step \(step): \(key) \(action.jsonText) by \(origin.user)"
        guard let shown = try? app.scopeJSON(key, of: state) else {
          Self.take(app, action, scope: key, origin: origin, into: &state)
          continue
        }
        // The lift gives back what it lifted.
        #expect(app.predict(ScopeKey(key), shown: shown, pending: [])?.state == shown, "\(context): the lift of \(shown.jsonText)")

        var daemon = state
        Self.take(app, action, scope: key, origin: origin, into: &daemon)
        let sent = try? app.scopeJSON(key, of: daemon)
        let predicted = app.predict(ScopeKey(key), shown: shown, pending: [PendingAction(action: action, origin: origin)])
        if Self.viewDecides(action, in: key, of: state) {
          compared += 1
          if sent != shown { changed += 1 }
          #expect(predicted?.state == sent, "\(context)\n predicted \(predicted?.state.jsonText ?? "nothing")\n daemon    \(sent?.jsonText ?? "nothing")")
        } else {
          counted += 1
        }
        state = daemon
      }
    }
    print("prediction properties: \(compared) predictions compared (\(changed) of them changes), \(counted) left to the daemon")
    if PropertyRandom.replayed == nil {
      #expect(compared > 1_000)
      #expect(changed > 300)
    }
  }

  /// A window with actions queued goes on from its last prediction when one more is queued
  /// (`predict(_:shown:pending:after:)`): taking the actions one more at a time, each time from
  /// the prediction before, gives byte for byte the state and the refusals that predicting them
  /// all at once does.
  @Test func predictingOneMoreActionFromTheLastPredictionIsPredictingThemAll() throws {
    let app = Workspace.hosted()
    var continued = 0
    for seed in PropertyRandom.seeds(from: 0x9E_D2C8, count: 40) {
      var random = PropertyRandom(seed: seed)
      var state = app.initialState
      var clock = Date(timeIntervalSince1970: 1_790_000_000)
      Self.reduce(app, .presence(.attached(window: "alice", user: "alice", scope: "board", at: clock)), into: &state)
      for _ in 0..<random.int(5...40) {
        let key = Self.scope(&random, in: state)
        let origin = ActionOrigin(user: "alice", window: "w", at: JSONDate.rounded(clock))
        Self.take(app, WorkspaceReplayProperties.action(&random, for: key, in: state), scope: key, origin: origin, into: &state)
        clock = clock.addingTimeInterval(1)
      }
      let key = Self.scope(&random, in: state)
      guard let shown = try? app.scopeJSON(key, of: state) else { continue }
      // The window's queue, made as the actions would have gone had the daemon taken them.
      var pending: [PendingAction] = []
      var ahead = state
      for _ in 0..<random.int(1...12) {
        clock = clock.addingTimeInterval(Double(random.int(1...5_000)) / 1000)
        let origin = ActionOrigin(user: "alice", window: "w", at: JSONDate.rounded(clock))
        let action = WorkspaceReplayProperties.action(&random, for: key, in: ahead)
        Self.take(app, action, scope: key, origin: origin, into: &ahead)
        pending.append(PendingAction(action: action, origin: origin))
      }
      var earlier: Prediction?
      for count in 1...pending.count {
        let context = "seed \(seed), \(key), \(count) of \(pending.count) pending"
        let whole = app.predict(ScopeKey(key), shown: shown, pending: Array(pending.prefix(count)))
        let going = app.predict(ScopeKey(key), shown: shown, pending: Array(pending.prefix(count)), after: earlier)
        #expect(going.map { Array($0.state.jsonText.utf8) } == whole.map { Array($0.state.jsonText.utf8) }, "\(context)")
        #expect(going?.refusals == whole?.refusals, "\(context)")
        if earlier?.progress != nil { continued += 1 }
        earlier = going
      }
    }
    if PropertyRandom.replayed == nil { #expect(continued > 100) }
  }

  /// A scope of the state: mostly the board and what exists, now and then something that
  /// does not.
  static func scope(_ random: inout PropertyRandom, in state: Workspace.State) -> String {
    let board = state.board.present
    let cards = Array(board.cards.ids)
    return random.pick([
      "board", "board",
      "column:" + (board.columns.isEmpty ? "todo" : random.pick(board.columns.map(\.name))),
      "card:\(cards.isEmpty ? 1 : random.pick(cards))", "card:\(cards.isEmpty ? 1 : random.pick(cards))",
      "chat:" + random.pick(Array(state.chat.channels.ids)),
    ])
  }

  /// True when the scope's view holds all the action's outcome depends on.
  static func viewDecides(_ action: JSONValue, in scope: String, of state: Workspace.State) -> Bool {
    guard case let .object(fields) = action, let (name, arguments) = fields.first else { return true }
    let board = state.board.present
    switch ScopeKey(scope).name {
    case "board":
      // Undo and redo need the history; the view counts archived cards without showing them;
      // the next column's id is not in the view.
      if ["undo", "redo", "restore"].contains(name) { return false }
      if name == "addColumn" { return board.nextColumnID == (board.columns.map(\.id).max() ?? 0) + 1 }
      return true
    case "column":
      let column = board.column(named: ScopeKey(scope).parameter ?? "")
      switch name {
      case "moveCard":
        // A card from another column is not in this one's view.
        guard case let .object(move) = arguments, let id = try? move["id"]?.decode(Int.self) else { return true }
        return column?.cards.contains(id) ?? true
      case "rename":
        // The other columns' names are not in the view.
        guard case let .object(rename) = arguments, case let .string(to)? = rename["to"] else { return true }
        return board.column(named: to) == nil
      default:
        return true
      }
    case "card":
      // The other columns' cards and limits are not in a card's view.
      return !["move", "restore"].contains(name)
    case "chat":
      // A channel's view holds the titles of the cards its messages link to, not of every card:
      // a new link to another shows its title once the daemon sends it.
      guard case let .object(said) = arguments, case let .string(text)? = said["text"] else { return true }
      let channel = state.chat.channels[id: ScopeKey(scope).parameter ?? ""]
      let linked = Set(channel?.messages.suffix(ChannelView.shown).flatMap(\.cards) ?? [])
      return Message.references(in: text).cards.allSatisfy { linked.contains($0) || board.cards[id: $0] == nil }
    default:
      return true
    }
  }

  /// Takes `action` for `scope` as the daemon does: embedded with its origin, admitted, reduced
  /// with what it feeds back.
  static func take(_ app: App, _ action: JSONValue, scope: String, origin: ActionOrigin, into state: inout Workspace.State) {
    let key = ScopeKey(scope)
    guard case let .success(appScope) = app.scope(for: key),
      let embedded = try? appScope.embed(key.parameter, action, origin)
    else { return }
    reduce(app, embedded, into: &state)
  }

  static func reduce(_ app: App, _ action: Workspace.Action, into state: inout Workspace.State) {
    Reduction.reduceWithFeedback(action, into: &state, reduce: app.reduceAdmitted, each: { _ in })
  }
}
