import Concord
import ConcordApp
import ConcordLog
import ConcordReplay
import Foundation
import Synchronization
import Testing

@testable import ConcordServer

/// A person stops a running effect (a live feed, a timer): from the moment the stop is reduced,
/// the effect delivers nothing more, as under the store — also while the stop is still on its
/// way to the log.
@Suite struct EffectCancellationTests {
  struct Feed: Codable, Equatable, Sendable {
    var ticks = 0
  }

  enum FeedAction: Codable, Equatable, Sendable {
    case start, stop, tick
  }

  /// The ticks a test lets through to the running effect.
  final class Ticks: Sendable {
    let stream: AsyncStream<Void>
    let continuation: AsyncStream<Void>.Continuation
    init() { (stream, continuation) = AsyncStream.makeStream() }
  }

  static func app(_ ticks: Ticks) -> HostedApp<Feed, FeedAction> {
    let reducer = Reducer<Feed, FeedAction, Ticks> { state, action, ticks in
      switch action {
      case .start:
        return .run { send in
          for await _ in ticks.stream { await send(.tick) }
        }
        .cancellable(id: "feed")
      case .stop:
        return .cancel(id: "feed")
      case .tick:
        state.ticks += 1
        return .none
      }
    }
    return HostedApp(
      name: "Feed", version: 1, initialState: Feed(), reducer: reducer, environment: ticks,
      scopes: [.scope("feed", state: { $0 }, action: { (action: FeedAction) in action })])
  }

  @Test func aStoppedEffectDeliversNothingEvenBeforeTheStopIsDurable() async throws {
    let ticks = Ticks()
    let hosted = try InProcessHost(app: Self.app(ticks))
    defer { hosted.removeHome() }
    let host = try hosted.makeHost(onFatal: { Issue.record("the host stopped: \($0)") })
    let window = await hosted.window("w", on: host, attachedTo: "feed")

    await host.handle(.send(scope: "feed", action: ["start": [:]], client: "c", cseq: 1), from: window)
    try await Self.waitUntil { await host.runningEffects == 1 }
    ticks.continuation.yield()
    try await Self.waitUntil { await host.committedNow.state.ticks == 1 }

    // The commit thread is held, so the stop is reduced but not yet durable when the tick comes.
    let release = DispatchSemaphore(value: 0)
    await host.committer.run({ () throws(LogError) in release.wait() }, thenOn: host.eventLoop) { _ in }
    await host.handle(.send(scope: "feed", action: ["stop": [:]], client: "c", cseq: 2), from: window)
    ticks.continuation.yield()
    try await Task.sleep(for: .milliseconds(200))
    #expect(await host.state.ticks == 1, "a tick was reduced after the stop")
    release.signal()

    try await Self.waitUntil { (try? hosted.log.entry(client: "c", cseq: 2)) != nil }
    try await Self.waitUntil { await host.isQuiet }
    var actions: [String] = []
    try hosted.log.forEachEntry { actions.append($0.record.action) }
    #expect(actions == [#"{"start":{}}"#, #"{"tick":{}}"#, #"{"stop":{}}"#])
  }

  static func waitUntil(_ condition: () async -> Bool) async throws {
    for _ in 0..<400 {
      if await condition() { return }
      try await Task.sleep(for: .milliseconds(5))
    }
    Issue.record("timed out")
  }
}

extension DaemonHost {
  var runningEffects: Int { effects.runningCount }
}
