import Concord
import ConcordApp
import ConcordWire
import Foundation
import PropertyRandom
import Testing

@testable import Workspace
@testable import WorkspaceWindows

/// A log written by version 1 of Workspace keeps working: for random sequences of every kind of
/// action, the state replayed from their version 1 entries is the state replayed from the same
/// actions written by this version, and the state the daemon had when it took them.
///
/// Version 1's entries are written here as its binary wrote them: Swift's synthesized `Codable`
/// of ``Version1Action`` (the action enum as it was) with Foundation's default `JSONEncoder`, whose
/// dates are seconds since 2001 at full precision — the clock's fractions of a millisecond included.
@Suite struct MigrationProperties {
  /// `Workspace.Action` as version 1 declared it: its coding synthesized.
  enum Version1Action: Codable {
    case board(Authored<BoardAction>)
    case chat(Authored<ChatAction>)
    case presence(PresenceAction)
    case reminders(ReminderAction)
    case booted

    init(_ action: Workspace.Action) {
      switch action {
      case let .board(action): self = .board(action)
      case let .chat(action): self = .chat(action)
      case let .presence(action): self = .presence(action)
      case let .reminders(action): self = .reminders(action)
      case .booted: self = .booted
      }
    }
  }

  @Test func aVersion1LogReplaysToTheStateItsActionsGiveInThisVersion() throws {
    let app = Workspace.hosted()
    var kinds = Set<String>()
    var refused = 0
    for seed in PropertyRandom.seeds(from: 0x0111_2000, count: 60) {
      var random = PropertyRandom(seed: seed)
      // What the daemon took and logged, in order, each with its outcome (fed-back actions too,
      // as the daemon logs them), and the state it reached.
      var live = app.initialState
      var entries: [(action: Workspace.Action, clock: Workspace.Action, applied: Bool)] = []
      for _ in 0..<random.int(20...80) {
        let typed = Self.action(&random, in: live)
        kinds.insert(Self.kind(typed))
        // The daemon takes a date to the millisecond (what its entry says); the version 1
        // daemon logged the clock's own.
        let taken = try JSONValue(encoding: typed).decode(Workspace.Action.self)
        Reduction.reduceWithFeedback(taken, into: &live, reduce: app.reduce) { step in
          entries.append((step.action, step.action == taken ? typed : step.action, step.refusal == nil))
          if step.refusal != nil { refused += 1 }
        }
      }
      var fromVersion1 = app.initialState
      var fromVersion2 = app.initialState
      let oldEncoder = JSONEncoder()
      for (index, entry) in entries.enumerated() {
        let seq = Int64(index + 1)
        let old = String(decoding: try oldEncoder.encode(Version1Action(entry.clock)), as: UTF8.self)
        let new = String(decoding: try JSONCoders.encoder().encode(entry.action), as: UTF8.self)
        #expect(!new.contains("_0"), "seed \(seed): \(new)")
        try app.replay(LoggedAction(seq: seq, app: "workspace", appVersion: 1, action: old, applied: entry.applied), into: &fromVersion1)
        try app.replay(LoggedAction(seq: seq, app: "workspace", appVersion: 2, action: new, applied: entry.applied), into: &fromVersion2)
      }
      let same = fromVersion1 == fromVersion2 && fromVersion2 == live
      #expect(same, "seed \(seed)")
    }
    // Every kind of action was written the version 1 way, and some were refused.
    #expect(kinds.count == 26 && refused > 100, "\(kinds.sorted()), \(refused) refused")
  }

  // MARK: - The actions

  /// `board.addCard`, `presence.detached`, `booted`: the case, and the case of its payload.
  static func kind(_ action: Workspace.Action) -> String {
    func caseName(_ value: Any) -> String { Mirror(reflecting: value).children.first?.label ?? "\(value)" }
    let payload: Any? = switch action {
    case let .board(authored): authored.action
    case let .chat(authored): authored.action
    case let .presence(action): action
    case let .reminders(action): action
    case .booted: nil
    }
    return payload.map { "\(caseName(action)).\(caseName($0))" } ?? caseName(action)
  }

  /// A date as a clock gives it: fractions of a millisecond, about now.
  static func clock(_ random: inout PropertyRandom) -> Date {
    Date(timeIntervalSinceReferenceDate: 817_000_000 + Double(random.int(0...10_000_000)) / 7)
  }

  /// Any Workspace action, naming mostly what the state holds: some are refused.
  static func action(_ random: inout PropertyRandom, in state: Workspace.State) -> Workspace.Action {
    let board = state.board.present
    let card = random.chance(85) ? (board.cards.ids.randomElement(using: &random) ?? 1) : random.int(1...50)
    let column = random.chance(85) ? (board.columns.map(\.name).randomElement(using: &random) ?? "todo") : "nowhere"
    let user = random.pick(["alice", "bob", "carol"])
    let due: Date? = random.chance(80) ? clock(&random).addingTimeInterval(Double(random.int(-86_400...864_000))) : nil
    let channel = random.pick(["general", "random", "ops"])
    let boardAction: BoardAction = switch random.int(0...18) {
    case 0, 1: .addCard(title: random.pick(["Fix login", "Café ☕", "日本語", ""]), column: random.chance(50) ? column : nil)
    case 2: .editCard(id: card, title: random.chance(50) ? "Renamed" : nil, description: random.chance(50) ? "Why" : nil)
    case 3: .moveCard(id: card, column: column, position: random.chance(50) ? random.int(1...4) : nil)
    case 4: .assign(id: card, user: random.chance(70) ? user : nil)
    case 5: .label(id: card, label: random.pick(["urgent", "docs"]))
    case 6: .unlabel(id: card, label: random.pick(["urgent", "docs"]))
    case 7, 8: .setDue(id: card, due: due)
    case 9: .archive(id: card)
    case 10: .restore(id: card)
    case 11: .addColumn(name: random.pick(["review", "later", "qa"]), limit: random.chance(30) ? random.int(1...5) : nil)
    case 12: .renameColumn(name: column, to: random.pick(["review", "later", "backlog"]))
    case 13: .moveColumn(name: column, position: random.int(1...4))
    case 14: .limitColumn(name: column, limit: random.chance(50) ? random.int(1...5) : nil)
    case 15: .removeColumn(name: column)
    case 16: .invite(user: user)
    case 17: .undo
    default: .redo
    }
    let chatAction: ChatAction = switch random.int(0...3) {
    case 0: .say(channel: channel, text: random.pick(["hello @bob", "see #1", "ünïcödé 😀"]))
    case 1: .edit(channel: channel, message: random.int(1...4), text: "edited")
    case 2: .delete(channel: channel, message: random.int(1...4))
    default: .createChannel(name: channel)
    }
    let window = "w-\(random.int(1...3))"
    let remindedDue = board.cards[id: card]?.due ?? due ?? clock(&random)
    switch random.int(0...99) {
    case 0..<55: return .board(Authored(user: user, at: clock(&random), boardAction))
    case 55..<75: return .chat(Authored(user: user, at: clock(&random), chatAction))
    case 75..<83: return .presence(.attached(window: window, user: user, scope: random.pick(["board", "card:1"]), at: clock(&random)))
    case 83..<89: return .presence(.detached(window: window, scope: "board"))
    case 89..<94: return .reminders(.fellDue(card: card, due: remindedDue))
    case 94..<98: return .reminders(.raise(card: card, due: remindedDue))
    default: return .booted
    }
  }
}
