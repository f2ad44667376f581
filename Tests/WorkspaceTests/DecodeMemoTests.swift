import Concord
import ConcordApp
import ConcordJSON
import ConcordWire
import Foundation
import PropertyRandom
import Testing

@testable import Workspace
@testable import WorkspaceWindows

/// A window decodes its scope's state after every update with a memo of the cards, columns and
/// messages it decoded before. Whatever the changes, the memo never changes what is decoded: for
/// random boards changed by random actions and applied as the daemon's diffs (the window's
/// path), and for the same states decoded afresh, the memo's decode equals a plain one.
@Suite struct DecodeMemoTests {
  @Test func aMemoNeverChangesWhatIsDecoded() throws {
    let app = Workspace.hosted()
    var checked = 0
    for seed in PropertyRandom.seeds(from: 0xDEC0DE, count: 20) {
      var random = PropertyRandom(seed: seed)
      var state = Workspace.State(board: Board.with(people: ["alice", "bob"]))
      let memo = DecodeMemo(capacity: random.chance(30) ? 5 : 50_000)
      var daemon = try JSONValue(encoding: BoardView(state))
      var window = daemon
      for step in 0..<60 {
        let ids = Array(state.board.present.cards.ids)
        let id = ids.isEmpty ? 1 : random.pick(ids)
        let action: BoardAction = random.pick([
          .addCard(title: random.pick(["Fix login", "日本語 😀", "Ship it"]), column: random.pick(["todo", "doing", nil])),
          .moveCard(id: id, column: random.pick(["todo", "doing", "done"]), position: nil),
          .label(id: id, label: random.pick(["bug", "ui"])),
          .editCard(id: id, title: random.pick(["Renamed", "Fix login"]), description: nil),
          .assign(id: id, user: random.pick(["alice", "bob", nil])),
          .archive(id: id), .restore(id: id), .undo,
        ])
        _ = Reduction.reduce(
          .board(Authored(user: "alice", at: Date(timeIntervalSince1970: 1_790_000_000 + Double(step)), action)),
          into: &state, reduce: app.reduce)
        let next = try JSONValue(encoding: BoardView(state))
        window = try StateDiff.between(daemon, next).apply(to: window)
        daemon = next
        let plain = try window.decode(BoardView.self)
        #expect(try window.decode(BoardView.self, memo: memo) == plain, "seed \(seed) step \(step)")
        // Decoded afresh (not sharing storage with what the memo kept): the same.
        #expect(try JSONValue(parsing: window.jsonText).decode(BoardView.self, memo: memo) == plain, "seed \(seed) step \(step)")
        checked += 1
      }
    }
    #expect(checked == 20 * 60 * PropertyRandom.scale || PropertyRandom.replayed != nil)
  }
}
