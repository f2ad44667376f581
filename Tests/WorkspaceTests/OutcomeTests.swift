import Concord
import ConcordApp
import ConcordWire
import Foundation
import Testing

@testable import Workspace
@testable import WorkspaceWindows

/// Each command a person types gets its outcome in the app's words, read from the state the
/// daemon sends once it took the action: the number a new card got, where a card went.
@Suite struct OutcomeTests {
  /// Types `line` in a window on `scope` as alice, has the app take it as the daemon would,
  /// and returns the window's outcome line for it.
  static func outcome(of line: String, in scope: String, state: inout Workspace.State) throws -> String? {
    let app = Workspace.hosted()
    let json = try action(ScopeKey(scope).name, line)
    let appScope = try app.scope(for: ScopeKey(scope)).get()
    let origin = ActionOrigin(user: "alice", window: "w", at: monday)
    let embedded = try appScope.embed(ScopeKey(scope).parameter, json, origin)
    let step = Reduction.reduceWithFeedback(embedded, into: &state, reduce: app.reduce, each: { _ in })
    #expect(step.refusal == nil, "\(line): \(step.refusal?.reason ?? "")")
    let window = try #require(Workspace.client.scope(named: ScopeKey(scope).name))
    return window.outcome(json, try app.scopeJSON(scope, of: state))
  }

  @Test func aCommandIsAnsweredWithWhatItDid() throws {
    var board = Board()
    board.people = ["alice", "bob"]
    var state = Workspace.State(board: board)
    #expect(try Self.outcome(of: "add Write docs", in: "board", state: &state) == "added #1 Write docs to todo")
    #expect(try Self.outcome(of: #"add "Fix login" to doing"#, in: "board", state: &state) == "added #2 Fix login to doing")
    #expect(try Self.outcome(of: "move 2 to DONE", in: "board", state: &state) == "moved #2 Fix login to done")
    #expect(try Self.outcome(of: "assign 1 @Bob", in: "board", state: &state) == "assigned #1 Write docs to bob")
    #expect(try Self.outcome(of: "label 1 Urgent", in: "board", state: &state) == "labelled #1 Write docs urgent")
    #expect(try Self.outcome(of: "archive 1", in: "board", state: &state) == "archived #1")
    #expect(try Self.outcome(of: "column add review 2", in: "board", state: &state) == "added the column review")
    #expect(try Self.outcome(of: "add Ship it", in: "column:review", state: &state) == "added #3 Ship it to review")
    #expect(try Self.outcome(of: "move doing", in: "card:3", state: &state) == "moved #3 to doing")
    #expect(try Self.outcome(of: "assign bob", in: "card:3", state: &state) == "assigned #3 to bob")
    #expect(try Self.outcome(of: "/channel random", in: "chat:general", state: &state) == "opened the channel random: /join random goes there")
    // A chat line shows itself in the conversation: the typed line is its outcome.
    #expect(try Self.outcome(of: "hello #2", in: "chat:general", state: &state) == nil)
  }
}
