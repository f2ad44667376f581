import ConcordLog
import ConcordPlatform
import ConcordWire
import Foundation
import Testing

@testable import ConcordClient

/// The client keeps text as the daemon will: in NFC. A scope typed in two spellings is one cache,
/// and a queued action shows offline as it will be logged. The spellings are facts of the
/// Unicode standard, written out here rather than made by our code.
@Suite struct OutboxTextTests {
  static let precomposed = "chat:caf\u{E9}"
  static let decomposed = "chat:cafe\u{301}"

  @Test func aScopeTypedInEitherSpellingIsOneCache() throws {
    let home = TemporaryHome.make()
    defer { try? FileManager.default.removeItem(at: home) }
    let outbox = try Outbox.open(home: ConcordHome(home))
    try outbox.remember(SeenState(scope: Self.decomposed, logID: "log", seq: 7, state: ["said": "hi"]))
    #expect(try outbox.lastSeen(Self.precomposed)?.seq == 7)
    #expect(try outbox.lastSeen(Self.decomposed)?.seq == 7)
  }

  @Test func aQueuedActionKeepsItsTextAsTheDaemonWillTakeIt() throws {
    let home = TemporaryHome.make()
    defer { try? FileManager.default.removeItem(at: home) }
    let outbox = try Outbox.open(home: ConcordHome(home))
    try outbox.enqueue(scope: Self.decomposed, action: ["say": ["text": "\u{1100}\u{1161} cafe\u{301}"]])
    let queued = try #require(try outbox.queued().first)
    #expect(Array(queued.scope.utf8) == Array(Self.precomposed.utf8))
    guard case let .object(say)? = queued.action.objectValue?["say"], case let .string(text)? = say["text"] else {
      Issue.record("the action came back as \(queued.action.jsonText)")
      return
    }
    #expect(Array(text.utf8) == Array("\u{AC00} caf\u{E9}".utf8))
  }
}

extension JSONValue {
  fileprivate var objectValue: [String: JSONValue]? { if case let .object(members) = self { members } else { nil } }
}
