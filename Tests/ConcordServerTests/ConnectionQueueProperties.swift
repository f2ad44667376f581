import ConcordWire
import Foundation
import PropertyRandom
import Testing

@testable import ConcordServer

/// The connection's queue against a model of what the wire promises a window, over random runs
/// of what a host does to it — actions read (an answer's place taken, filled later, in any
/// order), immediate answers, attaches (twice, again after a detach), detaches, changes of the
/// attached scopes — read a little at a time, as a slow window reads:
///
/// - answers come in the order of the requests they answer;
/// - an update comes only for a scope whose snapshot the window has, and applies to the state it
///   has (the window reads the lines exactly as a client does: snapshot, diff, reset);
/// - once everything is answered and read, the window has each attached scope's newest state.
@Suite struct ConnectionQueueProperties {
  /// The window at the other end: what it has read, kept the way a client keeps it.
  struct Window {
    var states: [String: JSONValue] = [:]
    var answers: [String] = []
    var problems: [String] = []

    mutating func read(_ line: String) {
      guard let message = try? WireCoding().decode(ServerMessage.self, from: Array(line.utf8.dropLast())) else {
        problems.append("an unreadable line: \(line)")
        return
      }
      switch message {
      case let .snapshot(scope, _, state, _):
        states[scope] = state
        answers.append("snapshot \(scope)")
      case let .update(scope, seq, change):
        guard let had = states[scope] else {
          problems.append("an update of \(scope) (seq \(seq)) before its snapshot")
          return
        }
        switch change {
        case let .reset(state): states[scope] = state
        case let .diff(diff):
          do {
            states[scope] = try diff.apply(to: had)
          } catch {
            problems.append("the update of \(scope) at seq \(seq) does not apply to the state the window has: \(error)")
          }
        }
      case let .ack(_, cseq, _): answers.append("#\(cseq)")
      case let .error(_, message, _): answers.append(message)
      case let .detached(scope):
        states[scope] = nil
        answers.append("detached \(scope)")
      default: problems.append("an unexpected \(message.typeName)")
      }
    }
  }

  @Test func windowsReadAnswersInOrderAndEndWithTheNewestStates() throws {
    var runs = 0
    for seed in PropertyRandom.seeds(from: 0x5155_0000, count: 300) {
      var random = PropertyRandom(seed: seed)
      let queue = ConnectionQueue()
      var window = Window()
      let scopes = ["a", "b", "c"]
      // The daemon's side: each scope's newest published state, and which are attached.
      var published: [String: PublishedState] = [:]
      var seq: Int64 = 0
      var attached: Set<String> = []
      var expected: [String] = []
      var unfilled: [(place: Int, request: Int)] = []
      var request = 0

      func publish(_ scope: String) -> PublishedState {
        seq += 1
        let state: JSONValue = ["n": .integer(seq), "scope": .string(scope), "k": .integer(Int64(random.int(0...3)))]
        let next = PublishedState(scope: scope, seq: seq, state: state, bytes: 10_000, previousSeq: published[scope]?.seq)
        published[scope] = next
        return next
      }
      func read(_ count: Int) {
        for _ in 0..<count {
          guard let line = queue.nextLine() else { return }
          window.read(line)
        }
      }

      for _ in 0..<random.int(5...60) {
        request += 1
        switch random.int(0...9) {
        case 0, 1:
          unfilled.append((queue.reserveAnswer().place, request))
          expected.append("#\(request)")
        case 2:
          queue.enqueue(.error(code: .badMessage, message: "#\(request)", cseq: nil))
          expected.append("#\(request)")
        case 3, 4:
          let scope = random.pick(scopes)
          let state = published[scope] ?? publish(scope)
          attached.insert(scope)
          queue.attach(scope, first: state.snapshotLine(), state: state)
          expected.append("snapshot \(scope)")
        case 5 where !attached.isEmpty:
          let scope = random.pick(Array(attached).sorted())
          attached.remove(scope)
          queue.detach(scope)
          queue.enqueue(.detached(scope: scope))
          expected.append("detached \(scope)")
        case 6 where !attached.isEmpty, 7 where !attached.isEmpty:
          request -= 1  // a push, not an answer
          let scope = random.pick(Array(attached).sorted())
          queue.scopeChanged(publish(scope))
        default:
          request -= 1
          if !unfilled.isEmpty {
            let filled = unfilled.remove(at: random.int(0...unfilled.count - 1))
            queue.fill(filled.place, with: .ack(client: "w", cseq: Int64(filled.request), seq: seq))
          }
        }
        read(random.int(0...3))
      }
      for filled in unfilled { queue.fill(filled.place, with: .ack(client: "w", cseq: Int64(filled.request), seq: seq)) }
      read(10_000)

      let context: Comment = "seed \(seed)"
      #expect(window.problems.isEmpty, "seed \(seed): \(window.problems.prefix(3))")
      #expect(window.answers == expected, context)
      for scope in attached {
        #expect(window.states[scope] == published[scope]?.state, "seed \(seed): the window's \(scope)")
      }
      #expect(queue.nextLine() == nil, context)
      runs += 1
    }
    #expect(runs > 0)
  }
}
