import ConcordApp
import ConcordClient
import ConcordWindow
import ConcordWire
import Foundation
import SampleApp
import Testing

/// What the window says of its link to the daemon and of what waits: offline, queued and
/// pending, back and resent, refused when resent, and a log that does not carry on.
@Suite struct WindowModelSessionTests {
  static let counter = WindowModelKeyTests.counter
  static let notes = WindowModelKeyTests.notes

  static func queued(_ cseq: Int64, _ typed: String, _ action: JSONValue, scope: String = "counter") -> QueuedAction {
    QueuedAction(cseq: cseq, scope: scope, action: action, queuedAt: Date(timeIntervalSince1970: 1_800_000_000), typed: typed)
  }

  @Test func theStatusLineSaysTheLinkTheSeqWhoAndWhatWaits() {
    var story = WindowStory(scope: "counter", window: Self.counter, state: 3)
    #expect(story.screenRows[10] == " connected · entry 1 · ann · all sent · help · q to quit")

    // `help` says what each part of the line means.
    var helped = WindowStory(scope: "counter", window: Self.counter, state: 3, columns: 100, rows: 60)
    helped.type("help")
    for words in ["entry N, the last entry of the log", "windows on other scopes show their own",
                  "◌ N shown ahead of the daemon", "N to send"] {
      // Wrapped to the width: read as one text.
      let read = helped.screen.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      #expect(read.contains(words), "help does not explain \(words): \(helped.screen)")
    }

    var fresh = WindowStory(scope: "counter", window: Self.counter, state: nil, link: .offline(retryingAt: nil))
    #expect(fresh.screen.contains("(no state seen yet: waiting for the daemon)"))
    #expect(fresh.screen.contains("OFFLINE · no state yet"))
  }

  @Test func theDaemonGoesAwayWhatIsTypedIsQueuedShownPendingAndSentWhenItIsBack() {
    var story = WindowStory(scope: "counter", window: Self.counter, state: 5, columns: 100)
    story.view.link = .offline(retryingAt: story.now.addingTimeInterval(3))
    story.tell([.disconnected(reason: "the daemon closed the connection"), .stateChanged])
    #expect(story.screen.contains("OFFLINE (the daemon closed the connection), retrying in 3s"))

    story.type("add 10")
    story.sendLast(as: 9)
    let pending = Self.queued(9, "add 10", ["add": ["amount": 10]])
    story.view.shown = Shown(state: 15, confirmed: 5, pending: [pending])
    story.view.waiting = 1
    story.tell([.stateChanged, .queued(cseq: 9, waiting: 1)])
    #expect(story.screen.contains("Count: 15 ◌ pending"))
    #expect(story.screen.contains("queued while offline: add 10 (1 to send)"))
    #expect(story.screen.contains("◌ 1 shown ahead of the daemon · 1 to send"))
    // A narrow window gives up why the link was lost before what waits.
    story.columns = 70
    #expect(story.screenRows[10] == " OFFLINE, retrying in 3s · entry 1 · ann · ◌ 1 ahead · 1 to send")
    story.columns = 55
    #expect(story.screenRows[10] == " OFFLINE, retrying in 3s · ◌ 1 ahead · 1 to send")
    story.columns = 100

    // Back: the queue is resent; the notice that it was queued is old news.
    story.view.link = .connected
    story.view.shown = Shown(state: 15, confirmed: 15)
    story.view.waiting = 0
    story.tell([.connected(user: "ann", logID: "abc"), .resent(pending, .applied, entry: 4), .stateChanged])
    #expect(story.screen.contains("connected (back, 1 replayed)"))
    #expect(!story.screen.contains("queued while offline"))
    #expect(story.screen.contains("Count: 15"))
    #expect(!story.screen.contains("◌"))
    story.wait(6)
    #expect(!story.screen.contains("(back"), "that it is back fades")
  }

  /// Two windows of one home, one link lost: what the first typed offline is resent by the
  /// second, which reconnected first. A window on the same scope, which showed it waiting,
  /// says "1 replayed" as the first does; a window on another scope, which did not, says only
  /// that it is back.
  @Test func eachWindowCountsTheReplayOfWhatItTyped() {
    var typing = WindowStory(scope: "counter", window: Self.counter, state: 5, columns: 100, link: .offline(retryingAt: nil))
    var other = WindowStory(scope: "notes", window: Self.notes, state: [], columns: 100, link: .offline(retryingAt: nil))
    typing.tell([.disconnected(reason: "the daemon closed the connection")])
    other.tell([.disconnected(reason: "the daemon closed the connection")])
    typing.type("add 10")
    typing.sendLast(as: 9)
    let pending = Self.queued(9, "add 10", ["add": ["amount": 10]])
    typing.view.shown = Shown(state: 15, confirmed: 5, pending: [pending])
    typing.tell([.stateChanged, .queued(cseq: 9, waiting: 1)])
    other.tell([.stateChanged])

    // The other window is back first and resends the home's queue: the action is not its own.
    other.view.link = .connected
    other.tell([.connected(user: "ann", logID: "abc"), .resent(pending, .applied, entry: 4), .stateChanged])
    #expect(other.screen.contains("connected (back)"), "\(other.screenRows)")
    #expect(!other.screen.contains("replayed"))

    // The typing window finds its action answered: it was replayed, by whichever window.
    typing.view.link = .connected
    typing.view.shown = Shown(state: 15, confirmed: 15)
    typing.tell([.connected(user: "ann", logID: "abc"), .stateChanged])
    #expect(typing.screen.contains("connected (back, 1 replayed)"), "\(typing.screenRows)")
  }

  @Test func anActionTheAppsReducerWillRefuseSaysSoWhenItIsQueued() {
    var story = WindowStory(scope: "counter", window: Self.counter, state: 0, columns: 120, link: .offline(retryingAt: nil))
    story.type("dec")
    story.sendLast(as: 2)
    story.view.shown = Shown(
      state: 0, confirmed: 0, pending: [Self.queued(2, "dec", ["decrement": [:]])], refusals: [2: "the counter is already at zero"])
    story.tell([.queued(cseq: 2, waiting: 1)])
    #expect(story.screen.contains("queued while offline: dec (1 to send); it will likely be refused: the counter is already at zero"))
  }

  @Test func aResendThatRefusesIsCountedAndTheRefusalStaysUntilDismissed() {
    var story = WindowStory(scope: "counter", window: Self.counter, state: 0, columns: 120)
    let refused = [
      RefusedAction(queued: Self.queued(3, "dec", ["decrement": [:]]), reason: "the counter is already at zero"),
      RefusedAction(queued: Self.queued(4, "dec", ["decrement": [:]]), reason: "the counter is already at zero"),
    ]
    // Offline, the window shows what waits (queued in an earlier session).
    story.view.link = .offline(retryingAt: nil)
    story.view.shown = Shown(state: 1, confirmed: 0, pending: [refused[0].queued, Self.queued(5, "inc", ["increment": [:]])])
    story.tell([.disconnected(reason: "gone")])
    story.view.link = .connected
    story.view.shown = Shown(state: 1, confirmed: 1)
    story.view.refusedOnResend = refused
    story.tell([
      .connected(user: "ann", logID: "abc"), .resent(refused[0].queued, .refused(reason: "no"), entry: 3),
      .resent(Self.queued(5, "inc", ["increment": [:]]), .applied, entry: 9),
    ])
    #expect(story.screen.contains("back, 2 replayed (1 refused)"))
    #expect(story.screen.contains("(1 of 2) ✗ counter: `dec` was refused on replay: the counter is already at zero · /dismiss"))
    story.type("/dismiss")
    #expect(story.lastCommand == .dismissRefused(upTo: 3))
    #expect(story.screen.contains("dismissed; 1 more"))
    story.view.refusedOnResend = [refused[1]]
    story.tell([])
    #expect(!story.screen.contains("(1 of 2)"))
    story.type("/dismiss")
    #expect(story.lastCommand == .dismissRefused(upTo: 4))
    story.view.refusedOnResend = []
    story.tell([])
    #expect(!story.screen.contains("refused on replay"))
    story.type("/dismiss")
    #expect(story.screen.contains("nothing to dismiss"))

    // `/dismiss all` puts every refusal away at once, up to the newest.
    story.view.refusedOnResend = refused
    story.tell([])
    story.type("/dismiss all")
    #expect(story.lastCommand == .dismissRefused(upTo: 4))
    #expect(story.screen.contains("dismissed 2 refusals"))
    story.view.refusedOnResend = []
    story.tell([])
    story.type("/dismiss all")
    #expect(story.screen.contains("nothing to dismiss"))
  }

  @Test func aLogThatDoesNotCarryOnSaysWhatToDoAndARolledBackOneKeepsTheWindowAway() {
    var story = WindowStory(scope: "counter", window: Self.counter, state: 0)
    story.tell([.logDiverged(.replaced(known: "aaaaaaaaaaaa", now: "bbbbbbbbbbbb"))])
    #expect(story.screen.contains("the daemon's log was replaced (bbbbbbbb…)"))
    story.view.link = .offline(retryingAt: nil)
    story.view.logWentBack = true
    story.columns = 200
    story.tell([.logDiverged(.rolledBack(logEndsAt: 3, seen: 9))])
    #expect(story.screen.contains("nothing is sent: `concord outbox sync --accept-rollback`"))
    #expect(story.screen.contains("OFFLINE (the daemon's log went back)"))
  }

  @Test func theDaemonsWordsAboutTheLinkGoToTheStatusLine() {
    var story = WindowStory(scope: "counter", window: Self.counter, state: 0, columns: 100, link: .connecting)
    #expect(story.screen.contains("OFFLINE, connecting"))
    story.view.link = .offline(retryingAt: nil)
    story.tell([.error("the update did not apply; asking for the whole state")])
    #expect(story.screen.contains("OFFLINE (the update did not apply"))
  }

  @Test func aConversationFollowsItsEndAndCountsWhatArrivesWhileScrolledUp() {
    let chat = WindowScope(
      name: "talk", render: { state, _ in (0..<(state.int64.map(Int.init) ?? 0)).map { "line \($0)" } }, parse: { _ in [:] },
      help: [], showsEnd: true)
    var story = WindowStory(scope: "talk", window: chat, state: 20, rows: 10)
    #expect(story.screen.contains("line 19"))
    story.press(.pageUp)
    story.daemon(state: 23, seq: 2)
    #expect(story.screenRows[0].contains("3 new below (End)"))
    story.press(.end)
    #expect(story.screen.contains("line 22"))
    #expect(!story.screenRows[0].contains("new below"))
  }
}
