import Concord
import ConcordTesting
import Foundation
import Testing

@testable import Workspace
@testable import WorkspaceWindows

/// Who is here, as the daemon tells the app.
@Suite struct PresenceTests {
  @Test func windowsComeAndGoAndARestartForgetsThem() async {
    let store = TestStore(initialState: Presence(), reducer: Presence.reducer, environment: ())
    await store.send(.attached(window: "7", user: "alice", scope: "board", at: monday)) {
      $0.windows.append(PresentWindow(id: "7", user: "alice", scopes: ["board"], since: monday))
    }
    await store.send(.attached(window: "7", user: "alice", scope: "card:1", at: monday)) {
      $0.windows[id: "7"]?.scopes.append("card:1")
    }
    await store.send(.attached(window: "8", user: "bob", scope: "chat:general", at: monday)) {
      $0.windows.append(PresentWindow(id: "8", user: "bob", scopes: ["chat:general"], since: monday))
    }
    #expect(store.state.people == ["alice", "bob"])
    await store.send(.detached(window: "7", scope: "board")) { $0.windows[id: "7"]?.scopes = ["card:1"] }
    await store.send(.detached(window: "7", scope: "card:1")) { $0.windows.remove(id: "7") }
    await store.send(.cleared) { $0.windows = [] }
  }
}
