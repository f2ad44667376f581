import Concord
import ConcordApp
import ConcordWire
import Foundation
import PropertyRandom
import Testing

@testable import ConcordServer

/// ARCHITECTURE.md's invariant 3: a window's prediction reduces as the host does. Admission (an
/// app's rules for new actions) is part of that rule, for the action sent and for every action
/// it feeds back.
///
/// The apps are random: each value an action can carry has a random list of values it feeds back
/// (always smaller ones, so every chain ends), and random sets of values the reducer refuses and
/// admission refuses. The model is written here from the rule's words alone — an action is
/// admitted, then reduced; a refusal changes nothing and feeds nothing back; what an action
/// feeds back is taken next, breadth first — and both the daemon's host and a window's
/// prediction must reach its state.
@Suite struct AdmissionRuleProperties {
  /// The state: the values taken, in order.
  struct Taken: Codable, Equatable, Sendable {
    var values: [Int] = []
  }

  /// `{"take":{"_0":3}}`: takes a value.
  enum Take: Codable, Equatable, Sendable {
    case take(Int)
  }

  /// One random app: what each value feeds back, and who refuses which.
  struct Rules: Sendable, CustomStringConvertible {
    var feedback: [Int: [Int]] = [:]
    var reducerRefuses: Set<Int> = []
    var admissionRefuses: Set<Int> = []

    init(_ random: inout PropertyRandom) {
      for value in 0..<Self.values {
        feedback[value] = value == 0 ? [] : (0..<random.int(0...3)).map { _ in random.int(0...value - 1) }
        if random.chance(15) { reducerRefuses.insert(value) }
        if random.chance(25) { admissionRefuses.insert(value) }
      }
    }

    static let values = 8

    var description: String {
      "feedback \(feedback.sorted { $0.key < $1.key }), the reducer refuses \(reducerRefuses.sorted()), admission \(admissionRefuses.sorted())"
    }

    var app: HostedApp<Taken, Take> {
      let rules = self
      let reducer = Reducer<Taken, Take, Void> { state, action, _ in
        guard case let .take(value) = action else { return .none }
        if rules.reducerRefuses.contains(value) { return .refuse("the reducer does not take \(value)") }
        state.values.append(value)
        let fedBack = rules.feedback[value] ?? []
        return fedBack.isEmpty ? .none : .merge(fedBack.map { .send(.take($0)) })
      }
      return HostedApp(
        name: "Rules", version: 1, initialState: Taken(), reducer: reducer, environment: (),
        admission: { action in
          guard case let .take(value) = action, rules.admissionRefuses.contains(value) else { return nil }
          return "\(value) is not admitted"
        },
        scopes: [.scope("taken", state: \.values, action: { (action: Take) in action })])
    }

    /// The model: the state after `sent`, by the rule's words.
    func model(_ values: [Int], after sent: [Int]) -> [Int] {
      var values = values
      for first in sent {
        var queue = [first]
        while !queue.isEmpty {
          let value = queue.removeFirst()
          guard !admissionRefuses.contains(value), !reducerRefuses.contains(value) else { continue }
          values.append(value)
          queue += feedback[value] ?? []
        }
      }
      return values
    }
  }

  static func json(_ value: Int) -> JSONValue { ["take": ["_0": .integer(Int64(value))]] }

  @Test func aWindowsPredictionAdmitsFedBackActionsAsTheHostDoes() throws {
    var refusedFeedback = 0
    for seed in PropertyRandom.seeds(from: 0xAD_3117, count: 200) {
      var random = PropertyRandom(seed: seed)
      let rules = Rules(&random)
      let app = rules.app
      let shown = (0..<random.int(0...4)).map { _ in random.int(0...Rules.values - 1) }
      let sent = (0..<random.int(1...6)).map { _ in random.int(0...Rules.values - 1) }
      let pending = sent.map { PendingAction(action: Self.json($0), origin: ActionOrigin(user: "ann", window: "w", at: Date(timeIntervalSince1970: 0))) }
      let predicted = app.predict(ScopeKey("taken"), shown: try JSONValue(encoding: shown), pending: pending)
      let expected = rules.model(shown, after: sent)
      #expect(
        predicted?.state == (try JSONValue(encoding: expected)),
        "seed \(seed): \(rules); shown \(shown), sent \(sent): predicted \(predicted?.state.jsonText ?? "nothing"), the rule says \(expected)")
      if sent.contains(where: { rules.feedbackReaches(from: $0, anyOf: rules.admissionRefuses) }) { refusedFeedback += 1 }
    }
    // The property is about fed-back actions admission refuses: most runs must have some.
    if PropertyRandom.replayed == nil { #expect(refusedFeedback > 50) }
  }

  @Test func theHostAdmitsFedBackActionsByTheSameRule() async throws {
    for seed in PropertyRandom.seeds(from: 0xAD_3118, count: 12) {
      var random = PropertyRandom(seed: seed)
      let rules = Rules(&random)
      let hosted = try InProcessHost(app: rules.app)
      defer { hosted.removeHome() }
      let host = try hosted.makeHost(onFatal: { Issue.record("the host stopped: \($0)") })
      let window = await hosted.window("w", on: host, attachedTo: "taken")
      let sent = (0..<random.int(1...8)).map { _ in random.int(0...Rules.values - 1) }
      for (index, value) in sent.enumerated() {
        await host.handle(.send(scope: "taken", action: Self.json(value), client: "c", cseq: Int64(index + 1)), from: window)
      }
      try await EffectCancellationTests.waitUntil { await host.isQuiet }
      let state = await host.state
      #expect(state.values == rules.model([], after: sent), "seed \(seed): \(rules); sent \(sent)")
    }
  }
}

extension AdmissionRuleProperties.Rules {
  /// Whether `value`'s chain feeds back one of `values` (past the action itself).
  func feedbackReaches(from value: Int, anyOf values: Set<Int>) -> Bool {
    guard !admissionRefuses.contains(value), !reducerRefuses.contains(value) else { return false }
    return (feedback[value] ?? []).contains { values.contains($0) || feedbackReaches(from: $0, anyOf: values) }
  }
}
