import Concord
import Testing

/// A refused action leaves the state exactly as it was, drops the reduction's effects, and tells
/// the sender why.
@Suite struct RefusalTests {
  struct Wallet: Equatable, Sendable {
    var balance = 10
    var history: [String] = []
  }
  enum WalletAction: Sendable { case spend(Int) }

  /// The first reducer records the attempt (a mutation and an effect); the second refuses when the
  /// balance would go negative. The refusal must undo the first reducer's work too.
  static func wallet(_ effects: Journal<String>) -> Reducer<Wallet, WalletAction, Void> {
    .combine(
      Reducer { state, action, _ in
        guard case let .spend(amount) = action else { return .none }
        state.history.append("spend \(amount)")
        return .fireAndForget { effects.append("audited \(amount)") }
      },
      Reducer { state, action, _ in
        guard case let .spend(amount) = action else { return .none }
        guard amount <= state.balance else {
          return .refuse("Not enough money: \(state.balance) left, \(amount) asked")
        }
        state.balance -= amount
        return .none
      }
    )
  }

  @Test func refusalRestoresTheStateAndDropsEffects() async throws {
    let effects = Journal<String>()
    let store = Store(initialState: Wallet(), reducer: Self.wallet(effects))

    let accepted = await store.send(.spend(4))
    await accepted.finish()
    #expect(accepted.refusal == nil)
    #expect(await store.state == Wallet(balance: 6, history: ["spend 4"]))

    let refused = await store.send(.spend(7))
    #expect(refused.refusal?.reason == "Not enough money: 6 left, 7 asked")
    #expect(refused.effects.isEmpty)
    #expect(await store.state == Wallet(balance: 6, history: ["spend 4"]))
    await settle()
    #expect(effects.all == ["audited 4"])
  }

  @Test func refusalOfAFedBackActionOnlyUndoesThatAction() async {
    enum Action: Sendable { case start, fail }
    let store = Store(
      initialState: [String](),
      reducer: Reducer<[String], Action, Void> { log, action, _ in
        switch action {
        case .start:
          log.append("started")
          return .send(.fail)
        case .fail:
          log.append("half-done")
          return .refuse("cannot")
        }
      })
    let task = await store.send(.start)
    #expect(task.refusal == nil)
    #expect(await store.state == ["started"])
  }
}
