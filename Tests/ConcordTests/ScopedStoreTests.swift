import CasePaths
import Concord
import Testing

/// A scoped store is a view of its parent: it reads the parent's state and sends through the
/// parent, at any depth.
@Suite struct ScopedStoreTests {
  struct Leaf: Equatable, Sendable { var value = 0 }
  struct Middle: Equatable, Sendable { var leaf = Leaf() }
  struct Root: Equatable, Sendable {
    var middle = Middle()
    var other = 0
  }
  @CasePathable enum LeafAction: Equatable, Sendable { case add(Int) }
  @CasePathable enum MiddleAction: Equatable, Sendable { case leaf(LeafAction) }
  @CasePathable enum RootAction: Equatable, Sendable { case middle(MiddleAction), bumpOther }

  static let leaf = Reducer<Leaf, LeafAction, Void> { state, action, _ in
    switch action {
    case let .add(amount):
      guard state.value + amount >= 0 else { return .refuse("Would go below zero") }
      state.value += amount
      return .none
    }
  }
  static let root = Reducer<Root, RootAction, Void>.combine(
    leaf
      .pullback(state: \Middle.leaf, action: \MiddleAction.AllCasePaths.leaf, environment: { _ in () })
      .pullback(state: \Root.middle, action: \RootAction.AllCasePaths.middle, environment: { _ in () }),
    Reducer { state, action, _ in
      if case .bumpOther = action { state.other += 1 }
      return .none
    }
  )

  @Test func aScopeTwoLevelsDownReadsAndWritesTheOneSourceOfTruth() async {
    let store = Store(initialState: Root(), reducer: Self.root)
    let middle = store.scope(state: \.middle, action: \.middle)
    let leaf = middle.scope(state: \.leaf, action: \.leaf)

    await leaf.send(.add(5))
    #expect(await leaf.state == Leaf(value: 5))
    #expect(await store.state.middle.leaf.value == 5)

    await store.send(.middle(.leaf(.add(2))))
    #expect(await leaf.state.value == 7)
    #expect(await middle.state.leaf.value == 7)
  }

  @Test func aScopedSendLearnsTheRefusal() async {
    let store = Store(initialState: Root(), reducer: Self.root)
    let leaf = store.scope(state: \.middle.leaf, action: { RootAction.middle(.leaf($0)) })
    let task = await leaf.send(.add(-1))
    #expect(task.refusal == "Would go below zero")
    #expect(await store.state == Root())
  }

  @Test func manyScopedSendersLoseNoAction() async {
    let store = Store(initialState: Root(), reducer: Self.root)
    let leaf = store.scope(state: \.middle, action: \.middle).scope(state: \.leaf, action: \.leaf)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<300 {
        group.addTask { await leaf.send(.add(1)) }
        group.addTask { await store.send(.bumpOther) }
      }
    }
    #expect(await store.state.middle.leaf.value == 300)
    #expect(await store.state.other == 300)
  }

  @Test func observingAScopeSeesOnlyItsOwnChanges() async {
    let store = Store(initialState: Root(), reducer: Self.root)
    let leaf = store.scope(state: \.middle.leaf, action: { RootAction.middle(.leaf($0)) })
    var values = await leaf.states(bufferingPolicy: .unbounded).makeAsyncIterator()
    #expect(await values.next() == Leaf(value: 0))
    await store.send(.bumpOther)  // not the leaf's business: no update
    await leaf.send(.add(2))
    #expect(await values.next() == Leaf(value: 2))
  }
}
