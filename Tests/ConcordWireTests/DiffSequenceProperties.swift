import ConcordWire
import Foundation
import PropertyRandom
import Testing

/// What a window relies on when it follows a scope: it starts from a snapshot, applies every
/// update the daemon sends in turn, and holds the daemon's state after each one; an update that
/// does not fit its state is an error it can recover from (by asking for a snapshot), never a
/// crash and never a state changed halfway.
///
/// Every case has its own seed, printed when it fails: `RandomJSON(seed:)` with that seed makes
/// the same states again, and `CONCORD_PROPERTY_SEED=<seed>` runs that case alone
/// (`CONCORD_PROPERTY_SCALE=10`: ten times as many cases).
@Suite struct DiffSequenceProperties {
  static let firstSeed: UInt64 = 0xD1FF_5E00_0000

  /// A chain of states s0, s1, …, sn, each the one before after some action: mostly a small
  /// edit, now and then an unrelated document, or no change at all.
  static func chain(_ generator: inout RandomJSON, length: ClosedRange<Int>) -> [JSONValue] {
    var states = [generator.document()]
    for _ in 0..<generator.count(length) {
      let previous = states.last!
      let next =
        generator.chance(6) ? generator.document() : generator.chance(6) ? previous : generator.edit(previous)
      states.append(next)
    }
    return states
  }

  /// The update as the daemon writes it on the socket, read back as a window reads it.
  static func throughTheWire(_ diff: StateDiff, seq: Int64) throws -> StateDiff? {
    let line = ServerMessage.update(scope: "board", seq: seq, change: .diff(diff)).line
    let message = try WireCoding().decode(ServerMessage.self, from: Array(line.utf8.dropLast()))
    guard case let .update(scope, readSeq, .diff(received)) = message, scope == "board", readSeq == seq else { return nil }
    return received
  }

  @Test func aWindowThatAppliesEveryDiffInOrderHoldsTheNewestState() throws {
    var steps = 0
    for seed in PropertyRandom.seeds(from: Self.firstSeed + 0, count: 250) {
      var generator = RandomJSON(seed: seed)
      let states = Self.chain(&generator, length: 1...12)
      // Two windows follow the same updates: one given the diffs as values, one given the
      // update lines the daemon writes, read as a window reads them (JSON text, JSONDecoder).
      var window = states[0]
      var wired = states[0]
      for index in 1..<states.count {
        // Made only for a failure: the text of every state would cost more than the property.
        func context() -> Comment {
          """
          seed \(seed), diff \(index) of \(states.count - 1)
            before \(states[index - 1].jsonText)
            after  \(states[index].jsonText)
          """
        }
        let diff = StateDiff.between(states[index - 1], states[index])
        guard let received = try Self.throughTheWire(diff, seq: Int64(index)) else {
          Issue.record("the update line does not read back as an update; \(context())")
          break
        }
        do {
          window = try diff.apply(to: window)
          wired = try received.apply(to: wired)
        } catch {
          Issue.record("\(context())\n  diff \(diff.jsonText)\n  \(error)")
          break
        }
        // Checked after every step: a window shows each state, not only the last.
        guard window == states[index], wired == states[index] else {
          Issue.record("\(context())\n  diff \(diff.jsonText)\n  gave \(window.jsonText)\n  wire \(wired.jsonText)")
          break
        }
        steps += 1
      }
      // A window that missed every update and gets one diff from s0 ends in the same state.
      let context: Comment = "seed \(seed)"
      #expect(try StateDiff.between(states[0], states.last!).apply(to: states[0]) == states.last!, context)
    }
    // The chains are long enough to matter (not checked when one case is replayed).
    if PropertyRandom.replayed == nil { #expect(steps > 1_200) }
  }

  /// A diff meant for s(i-1) applied to some other state — a window that missed an update, or
  /// holds the state of another scope — throws a DiffError that names the operation that did
  /// not fit, or gives a whole state; it never crashes. The window's own state is untouched,
  /// and the right base still gives the right state afterwards.
  @Test func aDiffAppliedToTheWrongStateThrowsADiffErrorOrGivesAStateNeverCrashes() throws {
    var thrown = 0
    var applied = 0
    for seed in PropertyRandom.seeds(from: Self.firstSeed + 0x1_0000, count: 1_500) {
      var generator = RandomJSON(seed: seed)
      let states = Self.chain(&generator, length: 2...8)
      let index = generator.count(1...states.count - 1)
      let diff = StateDiff.between(states[index - 1], states[index])
      let wrong: JSONValue =
        switch generator.count(0...3) {
        case 0: states[(index + generator.count(0...states.count - 2)) % states.count]  // another state of the chain
        case 1: generator.document()  // an unrelated document
        case 2: generator.edit(states[index - 1])  // a state that drifted a little
        default: generator.edit(states[index])  // a state that drifted from the newest one
        }
      let context: Comment = "seed \(seed)\n  base \(wrong.jsonText)\n  diff \(diff.jsonText)"
      do {
        _ = try diff.apply(to: wrong)
        applied += 1
      } catch {
        thrown += 1
        Self.expectNamesAnOperation(error, of: diff, context)
      }
      #expect(try diff.apply(to: states[index - 1]) == states[index], context)
    }
    // Both outcomes are reached, and often: the property is about both.
    if PropertyRandom.replayed == nil {
      #expect(thrown > 300)
      #expect(applied > 300)
    }
  }

  /// `error` says which operation failed — "operation K of N (…): why", K one of `diff`'s N
  /// operations — as a window reports it.
  static func expectNamesAnOperation(_ error: DiffError, of diff: StateDiff, _ context: Comment) {
    let prefix = "operation "
    let words = error.message.dropFirst(prefix.count).split(separator: " ", maxSplits: 3)
    let failing = words.count == 4 ? Int(words[0]) : nil
    #expect(error.message.hasPrefix(prefix) && words.count == 4 && words[1] == "of", "\(context)\n  \(error)")
    #expect(words.count == 4 && Int(words[2]) == diff.operations.count, "\(context)\n  \(error)")
    #expect(failing.map { (1...diff.operations.count).contains($0) } == true, "\(context)\n  \(error)")
  }

  /// Operations aimed at random places of a random state — paths that exist, that almost
  /// exist, indexes out of range, ids nobody has — as a buggy or hostile peer could send.
  @Test func randomOperationsOnRandomStatesThrowADiffErrorOrGiveAState() throws {
    var thrown = 0
    var applied = 0
    for seed in PropertyRandom.seeds(from: Self.firstSeed + 0x2_0000, count: 3_000) {
      var generator = RandomJSON(seed: seed)
      let state = generator.document()
      var operations: [DiffOperation] = []
      for _ in 0..<generator.count(1...3) { operations.append(Self.operation(on: state, &generator)) }
      let diff = StateDiff(operations: operations)
      let context: Comment = "seed \(seed)\n  state \(state.jsonText)\n  diff \(diff.jsonText)"
      do {
        let result = try diff.apply(to: state)
        applied += 1
        // What it gave is a state like any other: the diff to it from the state gives it too.
        #expect(try StateDiff.between(state, result).apply(to: state) == result, context)
      } catch {
        thrown += 1
        Self.expectNamesAnOperation(error, of: diff, context)
      }
    }
    // Most miss (as a hostile peer's would); enough fit to reach the changes themselves.
    if PropertyRandom.replayed == nil {
      #expect(thrown > 1_000)
      #expect(applied > 200)
    }
  }

  /// An update line damaged on the way — a byte changed, the line cut — is refused when it is
  /// read, or read as some diff that applies or throws a DiffError; never a crash.
  @Test func aDamagedUpdateLineIsRefusedOrAppliesOrThrowsNeverCrashes() throws {
    var unreadable = 0
    var applied = 0
    for seed in PropertyRandom.seeds(from: Self.firstSeed + 0x3_0000, count: 1_500) {
      var generator = RandomJSON(seed: seed)
      let old = generator.document()
      let diff = StateDiff.between(old, generator.edit(old))
      var bytes = Array(ServerMessage.update(scope: "s", seq: 1, change: .diff(diff)).line.utf8.dropLast())
      switch generator.count(0...2) {
      case 0:
        bytes[generator.count(0...bytes.count - 1)] = generator.random.pick(Array(#"{}[],:"0123456789-ez"#.utf8))
      case 1:
        bytes.removeLast(generator.count(1...bytes.count - 1))
      default:
        let at = generator.count(0...bytes.count - 1)
        bytes.insert(contentsOf: Array(#"{"id":1}"#.utf8).prefix(generator.count(1...8)), at: at)
      }
      let message: ServerMessage
      do {
        message = try WireCoding().decode(ServerMessage.self, from: bytes)
      } catch {
        unreadable += 1
        continue
      }
      guard case let .update(_, _, .diff(received)) = message else { continue }
      applied += 1
      do {
        _ = try received.apply(to: old)
      } catch {
        Self.expectNamesAnOperation(error, of: received, "seed \(seed)")
      }
    }
    // Both kinds of damage happened: lines that no longer read, and diffs that still read and
    // were applied (or refused) without harm.
    if PropertyRandom.replayed == nil {
      #expect(unreadable > 300)
      #expect(applied > 50)
    }
  }

  // MARK: - Random operations

  /// A random operation on `state`: mostly at a path that exists, sometimes one component off.
  static func operation(on state: JSONValue, _ generator: inout RandomJSON) -> DiffOperation {
    var path = existingPath(in: state, &generator)
    if generator.chance(25) { path.append(component(&generator)) }
    if generator.chance(15), !path.isEmpty { path[path.count - 1] = component(&generator) }
    switch generator.count(0...9) {
    case 0...2: return .set(path: path, value: generator.value(depth: 2))
    case 3...4: return .remove(path: path)
    case 5...6:
      let after: ElementID? = generator.chance(30) ? nil : ElementID(generator.id())
      return .move(path: path, after: after)
    case 7: return .append(path: path, values: [generator.scalar()])
    default: return .truncate(path: path, count: generator.random.pick([-1, 0, 1, 2, 5, Int.max]))
    }
  }

  /// A path that exists in `state`, from the root down a random number of levels.
  static func existingPath(in state: JSONValue, _ generator: inout RandomJSON) -> [PathComponent] {
    var path: [PathComponent] = []
    var here = state
    while generator.chance(70) {
      switch here {
      case let .object(object) where !object.isEmpty:
        let key = generator.random.pick(object.keys.sorted())
        path.append(.key(key))
        here = object[key]!
      case let .array(array) where !array.isEmpty:
        let index = generator.count(0...array.count - 1)
        if let id = ElementID(of: array[index]), generator.chance(60) {
          path.append(.id(id))
        } else {
          path.append(.index(index))
        }
        here = array[index]
      default:
        return path
      }
    }
    return path
  }

  static func component(_ generator: inout RandomJSON) -> PathComponent {
    switch generator.count(0...2) {
    case 0: .key(generator.random.pick(RandomJSON.keys))
    case 1: .index(generator.random.pick([-1, 0, 1, 3, 7, Int.max, Int.min]))
    default: .id(ElementID(generator.id())!)
    }
  }
}
