import CasePaths
import Concord
import ConcordApp
import ConcordLog
import ConcordPlatform
import ConcordReplay
import ConcordTesting
import ConcordWire
import Foundation
import IdentifiedCollections
import PropertyRandom
import Synchronization
import Testing

@testable import ConcordServer

/// What an app author relies on: an app that behaves one way under the ``Store`` and passes its
/// exhaustive `TestStore` test behaves the same way hosted by the daemon, and the same again when
/// the daemon boots it from its log. Each case is a random composed app — a root reducer
/// combined with a pulled-back counter, an `ifLet` child and a `forEach` of rows, whose actions
/// change their state, refuse (after changing it: the change must be undone), feed actions back
/// with `.send` in chains, start `.run` effects that send actions later, and cancel them (by id,
/// or in flight) — and a random script
/// of bursts of actions. A `TestStore` is walked through exactly the reductions the store made
/// (each sent action and each received one, in order, with the state after it, exhaustively).
/// After every burst, when its effects are done, the store's state and the daemon's are the
/// same; at the end the daemon's log holds the actions the store reduced, in the
/// store's order, applied or refused as the store did; and replaying the log gives the daemon's
/// state at every seq the run saw (``HostedRun/finish()``).
///
/// Each case has a seed, printed in every failure; `CONCORD_PROPERTY_SEED=<seed>` runs it alone.
@Suite struct ReductionProperties {
  typealias Run = HostedRun<Composed.Root, Composed.Action>

  @Test func theDaemonAndItsLogReduceExactlyAsTheStoreDoes() async throws {
    var reduced = 0
    var refused = 0
    var fedBack = 0
    for seed in PropertyRandom.seeds(from: 0x5E4D_0000, count: 40) {
      print("reduction case, seed \(seed)")
      var random = PropertyRandom(seed: seed)
      let program = Composed.Program(&random)
      let label = "seed \(seed)"

      let testGate = Composed.Gate()
      let testStore = TestStore(initialState: Composed.Root(), reducer: program.reducer, environment: testGate)
      testStore.timeout = .seconds(5)
      let storeGate = Composed.Gate()
      let storeRecord = Composed.Record()
      let store = Store(
        initialState: Composed.Root(), reducer: program.reducer.recording(into: storeRecord), environment: storeGate)
      let daemonGate = Composed.Gate()
      let run = try await Run(
        app: program.hosted(gate: daemonGate), snapshotInterval: Int64(random.int(2...20)),
        peers: [PeerCredentials.twoPeople[0]], label: label)
      defer { run.removeHome() }
      await run.attach(0, "root", since: false)

      for step in 0..<random.int(6...14) {
        let burst = (0..<random.int(1...4)).map { _ in program.rootAction(&random) }
        // Effects wait at the gate until the whole burst is in: where an effect's action lands
        // among the burst's would otherwise be the scheduler's choice.
        storeGate.close()
        var chains: [Range<Int>] = []
        for action in burst {
          let start = storeRecord.steps.count
          await store.send(action)
          chains.append(start..<storeRecord.steps.count)
        }
        let afterBurst = storeRecord.steps.count
        storeGate.open()
        await Composed.waitUntilQuiet(store)
        // The test store must be shown every one of those reductions, in that order.
        let steps = storeRecord.steps
        testGate.close()
        for chain in chains {
          await Self.expect(steps[chain.lowerBound], sentTo: testStore)
          for step in steps[chain.dropFirst()] { await Self.expect(step, receivedBy: testStore) }
        }
        testGate.open()
        for step in steps[afterBurst...] { await Self.expect(step, receivedBy: testStore) }
        daemonGate.close()
        for action in burst { await run.send(0, scope: "root", action: try JSONValue(encoding: action)) }
        await run.settle()
        daemonGate.open()
        await run.settle(quiet: true)

        let storeState = await store.state
        guard storeState == run.state else {
          Issue.record("\(label), step \(step) (\(burst)): the daemon's state differs from the store's:\n  \(run.state)\n  \(storeState)")
          break
        }
      }
      await testStore.finish()
      _ = try await run.finish()

      var logged: [(action: Composed.Action, applied: Bool)] = []
      try run.log.forEachEntry { entry in
        let action = try JSONValue(parsing: entry.record.action).decode(Composed.Action.self)
        logged.append((action, entry.record.outcome == .applied))
      }
      let storeReduced = storeRecord.steps
      let common = min(logged.count, storeReduced.count)
      let firstDifference =
        (0..<common).first { logged[$0].action != storeReduced[$0].action || logged[$0].applied != storeReduced[$0].applied }
        ?? common
      #expect(
        logged.count == storeReduced.count && firstDifference == logged.count,
        "\(label): the log holds \(logged.count) actions, the store reduced \(storeReduced.count); they differ from \(firstDifference) on"
      )
      reduced += storeReduced.count
      refused += storeReduced.count { !$0.applied }
      fedBack += logged.count - run.sent.count
    }
    print("reduction properties: \(reduced) actions reduced, \(refused) refused, \(fedBack) fed back or sent by effects")
    // The cases do reach what the property is about: chains, refusals in them, effects.
    if PropertyRandom.replayed == nil {
      #expect(refused > 100)
      #expect(fedBack > 300)
    }
  }

  /// The test store is sent `step`'s action and must reduce it as the store did.
  static func expect(_ step: Composed.Step, sentTo testStore: TestStore<Composed.Root, Composed.Action>) async {
    if let refusal = step.refusal {
      await testStore.send(step.action, refusedWith: refusal)
    } else {
      await testStore.send(step.action) { $0 = step.state }
    }
  }

  /// The test store must receive `step`'s action next and reduce it as the store did.
  static func expect(_ step: Composed.Step, receivedBy testStore: TestStore<Composed.Root, Composed.Action>) async {
    if let refusal = step.refusal {
      await testStore.receive(step.action, refusedWith: refusal)
    } else {
      await testStore.receive(step.action) { $0 = step.state }
    }
  }
}

/// A composed app whose behaviour is drawn at random: what each of its actions does is a row of
/// a ``Program``.
enum Composed {
  /// Something that counts, and remembers the order of the operations it took.
  protocol Tally: SendableMetatype {
    var value: Int { get set }
    var seen: [Int] { get set }
  }

  struct Counter: Tally, Codable, Equatable, Sendable {
    var value = 0
    var seen: [Int] = []
  }

  struct Row: Tally, Codable, Equatable, Sendable, Identifiable {
    var id: Int
    var value = 0
    var seen: [Int] = []
  }

  struct Root: Tally, Codable, Equatable, Sendable {
    var value = 0
    var seen: [Int] = []
    var counter = Counter()
    var maybe: Counter?
    var rows: IdentifiedArrayOf<Row> = []
  }

  enum ChildAction: Codable, Equatable, Sendable {
    case op(Int)
  }

  @CasePathable enum Action: Codable, Equatable, Sendable {
    case op(Int)
    case counter(ChildAction)
    case maybe(ChildAction)
    case rows(IdentifiedAction<Int, ChildAction>)
    case toggleMaybe
    case addRow(Int)
    case removeRow(Int)
  }

  /// What one operation does: changes the value, refuses when the value leaves its limit (after
  /// the change, which must then be undone), feeds actions back, and may start an effect.
  struct Operation: Sendable {
    var delta: Int
    var limit: Int
    var sends: [Action]
    /// The action a `.run` effect sends, later.
    var run: Action?
    /// Whether its `.run` cancels the runs under way (`cancelInFlight`).
    var cancelsInFlight = false
    /// Whether it cancels every run under way or waiting (`.cancel(id:)`).
    var cancelsRuns = false
  }

  /// How many operations each part has. An operation feeds back only operations numbered after
  /// it, so every chain ends.
  static let operations = 6

  struct Program: Sendable {
    var root: [Operation] = []
    var counter: [Operation] = []
    var maybe: [Operation] = []
    var row: [Operation] = []
    /// Whether the root's own reducer runs before the pulled-back counter's.
    var rootFirst: Bool

    init(_ random: inout PropertyRandom) {
      rootFirst = random.chance(50)
      for index in 0..<Composed.operations {
        root.append(Self.operation(index, &random) { random in Self.rootTarget(after: index, &random) })
        counter.append(Self.operation(index, &random) { random in .counter(.op(random.int(index + 1...Composed.operations))) })
        maybe.append(Self.operation(index, &random) { random in .counter(.op(random.int(index + 1...Composed.operations))) })
        row.append(Self.operation(index, &random) { random in .counter(.op(random.int(index + 1...Composed.operations))) })
      }
      // Only the root starts effects: they all wait in one serial queue, so they deliver in the
      // order they were started, under the store and the daemon alike.
      for index in root.indices where random.chance(30) {
        root[index].run = Self.rootTarget(after: index, &random)
        root[index].cancelsInFlight = random.chance(30)
      }
      for index in root.indices where random.chance(15) {
        root[index].cancelsRuns = true
      }
    }

    /// An operation numbered `index`; `target` draws an action it may feed back (every child's
    /// targets are carried in `.counter` here, and taken out by the child's reducer).
    static func operation(
      _ index: Int, _ random: inout PropertyRandom, target: (inout PropertyRandom) -> Action
    ) -> Operation {
      let count = index == Composed.operations - 1 ? 0 : random.pick([0, 0, 0, 1, 1, 1, 2])
      return Operation(
        delta: random.int(-3...3), limit: random.int(2...7), sends: (0..<count).map { _ in target(&random) }, run: nil)
    }

    /// Any action of the app that is not a root operation numbered `index` or below; a number
    /// past the last operation is refused by the reducer.
    static func rootTarget(after index: Int, _ random: inout PropertyRandom) -> Action {
      let op = random.int(index + 1...Composed.operations)
      let row = random.int(0...3)
      switch random.int(0...9) {
      case 0...3: return .op(op)
      case 4: return .counter(.op(random.int(0...Composed.operations)))
      case 5: return .maybe(.op(random.int(0...Composed.operations)))
      case 6: return .rows(.element(id: row, action: .op(random.int(0...Composed.operations))))
      case 7: return .toggleMaybe
      case 8: return .addRow(row)
      default: return .removeRow(row)
      }
    }

    /// An action a window sends.
    func rootAction(_ random: inout PropertyRandom) -> Action {
      switch random.int(0...9) {
      case 0...3: return .op(random.int(0...Composed.operations - 1))
      default: return Self.rootTarget(after: -1, &random)
      }
    }

    /// The app's reducer, composed.
    var reducer: Reducer<Root, Action, Gate> {
      let root = self.root
      let core = Reducer<Root, Action, Gate> { state, action, gate in
        switch action {
        case let .op(index):
          var effect = Composed.apply(index, of: root, to: &state, embed: { $0 })
          guard effect.refusal == nil, root.indices.contains(index) else { return effect }
          if root[index].cancelsRuns { effect = .merge(effect, .cancel(id: Composed.runs)) }
          if let later = root[index].run {
            effect = .merge(
              effect,
              Effect.run { send in
                await gate.wait()
                await send(later)
              }
              .queued(in: Composed.serial)
              .cancellable(id: Composed.runs, cancelInFlight: root[index].cancelsInFlight))
          }
          return effect
        case .toggleMaybe:
          state.maybe = state.maybe == nil ? Counter() : nil
        case let .addRow(id):
          guard state.rows[id: id] == nil else { return .refuse("row \(id) is already there") }
          state.rows.append(Row(id: id))
        case let .removeRow(id):
          guard state.rows.remove(id: id) != nil else { return .refuse("there is no row \(id)") }
        case .counter, .maybe, .rows:
          break
        }
        return .none
      }
      let counter = Composed.child(self.counter, Counter.self).pullback(
        state: \Root.counter, action: \Action.AllCasePaths.counter, environment: { (gate: Gate) in gate })
      let maybe = Composed.child(self.maybe, Counter.self)
      let row = Composed.child(self.row, Row.self)
      return Reducer.combine(rootFirst ? [core, counter] : [counter, core])
        .ifLet(state: \.maybe, action: \.maybe, environment: { $0 }, then: maybe)
        .forEach(state: \.rows, action: \.rows, environment: { $0 }, element: row)
    }

    /// The app as the daemon hosts it: one scope, the whole state.
    func hosted(gate: Gate) -> HostedApp<Root, Action> {
      HostedApp(
        name: "Composed", version: 1, initialState: Root(), reducer: reducer, environment: gate,
        scopes: [.scope("root", state: { $0 }, action: { (action: Action) in action })])
    }
  }

  /// A child's reducer: its operations, whose targets are child operations.
  static func child<State: Tally>(_ operations: [Operation], _: State.Type) -> Reducer<State, ChildAction, Gate> {
    Reducer { state, action, _ in
      guard case let .op(index) = action else { return .none }
      return apply(index, of: operations, to: &state) { parent in
        guard case let .counter(child) = parent else { return nil }
        return child
      }
    }
  }

  /// Operation `index` on `state`: its change, then its refusal or what it feeds back.
  static func apply<State: Tally, A: Sendable>(
    _ index: Int, of operations: [Operation], to state: inout State, embed: (Action) -> A?
  ) -> Effect<A> {
    guard operations.indices.contains(index) else { return .refuse("there is no operation \(index)") }
    let operation = operations[index]
    state.value += operation.delta
    state.seen.append(index)
    guard abs(state.value) <= operation.limit else {
      return .refuse("operation \(index) would take the value to \(state.value)")
    }
    return .merge(operation.sends.compactMap(embed).map { Effect.send($0) })
  }

  static let serial = EffectQueue("serial", .oldestSuspendingNew(1))
  static let runs = "runs"

  /// Holds effects back until it is opened.
  final class Gate: Sendable {
    private let isOpen = Mutex(false)
    func open() { isOpen.withLock { $0 = true } }
    func close() { isOpen.withLock { $0 = false } }
    func wait() async {
      while !isOpen.withLock({ $0 }), !Task.isCancelled { try? await Task.sleep(for: .milliseconds(1)) }
    }
  }

  /// One action a reducer was given: whether it applied it, and the state after it (as it was
  /// before, when it was refused).
  struct Step: Sendable {
    let action: Action
    let refusal: String?
    let state: Root
    var applied: Bool { refusal == nil }
  }

  /// Every action a reducer was given, in order.
  final class Record: Sendable {
    private let recorded = Mutex<[Step]>([])
    var steps: [Step] { recorded.withLock { $0 } }
    func append(_ step: Step) { recorded.withLock { $0.append(step) } }
  }

  static func waitUntilQuiet(_ store: Store<Root, Action>) async {
    let deadline = Date().addingTimeInterval(20)
    while store.runningEffectCount > 0, Date() < deadline { try? await Task.sleep(for: .milliseconds(1)) }
  }
}

extension Reducer where State == Composed.Root, Action == Composed.Action, Environment == Composed.Gate {
  /// This reducer, noting in `record` each action it is given, whether it applied it and the
  /// state after it.
  func recording(into record: Composed.Record) -> Self {
    Reducer { state, action, gate in
      let before = state
      let effect = self.reduce(into: &state, action: action, environment: gate)
      let refusal = effect.refusal?.reason
      record.append(Composed.Step(action: action, refusal: refusal, state: refusal == nil ? state : before))
      return effect
    }
  }
}
