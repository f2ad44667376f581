import Clocks
import Concord
import ConcordClient
import ConcordWire
import ConcordTesting
import Foundation
import Testing

@testable import Workspace
@testable import WorkspaceWindows

/// What typing `text` in a Workspace window on `scope` sends the daemon.
func action(_ scope: String, _ text: String) throws -> JSONValue {
  try #require(Workspace.client.scope(named: scope)).parse(text)
}

/// What typing `text` in a window on `scope` sends, as the app's action type.
func decoded<Action: Decodable>(_ scope: String, _ text: String, as: Action.Type) throws -> Action {
  try action(scope, text).decode(Action.self)
}

/// A fixed moment the stories happen at.
let monday = Date(timeIntervalSinceReferenceDate: 800_000_000)

extension Authored {
  static func by(_ user: String, _ action: Action, at date: Date = monday) -> Authored {
    Authored(user: user, at: date, action)
  }
}

extension Workspace.Action {
  static func board(_ user: String, _ action: BoardAction, at date: Date = monday) -> Workspace.Action {
    .board(Authored(user: user, at: date, action))
  }

  static func chat(_ user: String, _ action: ChatAction, at date: Date = monday) -> Workspace.Action {
    .chat(Authored(user: user, at: date, action))
  }

  static func opensWindow(_ user: String, on scope: String = "board", window: String? = nil) -> Workspace.Action {
    .presence(.attached(window: window ?? "w-\(user)", user: user, scope: scope, at: monday))
  }
}

extension Workspace.Environment {
  /// Time from a test clock: `now` starts at `start` and moves as the clock is advanced.
  static func test(clock: TestClock<Duration>, start: Date = monday) -> Workspace.Environment {
    let zero = clock.now
    return Workspace.Environment(clock: clock) {
      let elapsed = zero.duration(to: clock.now)
      return start.addingTimeInterval(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
  }
}

extension Board {
  /// The default board with people who joined.
  static func with(people: [String]) -> Board {
    var board = Board()
    board.people = people
    return board
  }
}

extension Board {
  /// The board after `action` by `user`, by the board's own reducer; a refusal fails the test.
  func applying(_ action: BoardAction, by user: String = "alice", sourceLocation: SourceLocation = #_sourceLocation) -> Board {
    var board = self
    let effect = Board.reducer.reduce(into: &board, action: .by(user, action), environment: ())
    #expect(effect.refusal == nil, "\(action) was refused: \(effect.refusal?.reason ?? "")", sourceLocation: sourceLocation)
    return board
  }
}

extension Workspace.State {
  /// The whole app on a test clock.
  static func store(_ state: Workspace.State, clock: TestClock<Duration> = TestClock()) -> TestStore<Workspace.State, Workspace.Action> {
    TestStore(initialState: state, reducer: Workspace.reducer, environment: .test(clock: clock), clock: clock)
  }
}
